import { withPaymentProvider } from '../../composition/payment-provider.js';
import { openCheckout } from '../../domain/money/billing.js';
import { implementJwt } from '../implement-jwt.js';
import { createCheckoutSession } from '../routes/management.js';

/** `POST /mgmt/v1/billing/checkout`: credits are granted later, by the provider's signed event, from the price table. */
export const handler = implementJwt(
  createCheckoutSession,
  async ({ services, member, body }) => ({
    status: 200,
    body: await openCheckout(services, member, { price: body.price, successUrl: body.success_url, cancelUrl: body.cancel_url }),
  }),
  { extend: withPaymentProvider },
);
