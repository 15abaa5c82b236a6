import { openPortal } from '../../../domain/money/billing.js';
import { PortalRequestSchema, PortalSessionSchema } from '../../../schemas/management.js';
import { implementJwt } from '../../implement-jwt.js';
import { managementRoute } from '../define.js';

export const route = managementRoute({
  module: import.meta.url,
  id: 'create-portal-session',
  method: 'POST',
  path: '/mgmt/v1/billing/portal',
  minimumRole: 'owner',
  summary: "A short-lived link to the payment provider's billing portal",
  body: PortalRequestSchema,
  responses: { 200: { description: 'the portal session', schema: PortalSessionSchema } },
  errors: ['resource_not_found'],
  access: { table: 'readwrite' },
  settings: ['payments'],
});

/** `POST /mgmt/v1/billing/portal` */
export const handler = implementJwt(
  route,
  async ({ services, member, body }) => ({ status: 200, body: await openPortal(services, member, body.return_url) }),
  {
    extend: async () => (await import('../../../composition/payment-provider.js')).withPaymentProvider,
  },
);
