import { withPaymentProvider } from '../../container-billing.js';
import { openPortal } from '../../domain/money/billing.js';
import { implement } from '../implement.js';
import { createPortalSession } from '../routes/management.js';

/** `POST /mgmt/v1/billing/portal` */
export const handler = implement(createPortalSession, async ({ services, member, body }) => ({ status: 200, body: await openPortal(services, member, body.return_url) }), {
  extend: withPaymentProvider,
});
