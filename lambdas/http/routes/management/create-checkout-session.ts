import { openCheckout } from '../../../domain/money/billing.js';
import { CheckoutRequestSchema, CheckoutSessionSchema } from '../../../schemas/management.js';
import { implementJwt } from '../../implement-jwt.js';
import { managementRoute } from '../define.js';

export const route = managementRoute({
  module: import.meta.url,
  id: 'create-checkout-session',
  method: 'POST',
  path: '/mgmt/v1/billing/checkout',
  minimumRole: 'owner',
  summary: 'Open a checkout session for a credit top-up or a subscription',
  body: CheckoutRequestSchema,
  responses: { 200: { description: 'the session: send the payer to url', schema: CheckoutSessionSchema } },
  errors: ['resource_not_found'],
  // Idempotency-Key records, the provider customer id
  access: { table: 'readwrite' },
  settings: ['payments'],
});

/** `POST /mgmt/v1/billing/checkout`: credits are granted later, by the provider's signed event, from the price table. */
export const handler = implementJwt(
  route,
  async ({ services, member, body }) => ({
    status: 200,
    body: await openCheckout(services, member, {
      price: body.price,
      successUrl: body.success_url,
      cancelUrl: body.cancel_url,
    }),
  }),
  { extend: async () => (await import('../../../composition/payment-provider.js')).withPaymentProvider },
);
