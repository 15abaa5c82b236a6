import { withPaymentProvider } from '../../composition/payment-provider.js';
import { openPortal } from '../../domain/money/billing.js';
import { implementJwt } from '../implement-jwt.js';
import { createPortalSession } from '../routes/management.js';

/** `POST /mgmt/v1/billing/portal` */
export const handler = implementJwt(createPortalSession, async ({ services, member, body }) => ({ status: 200, body: await openPortal(services, member, body.return_url) }), {
  extend: withPaymentProvider,
});
