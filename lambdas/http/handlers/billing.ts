import { withPaymentProvider } from '../../composition/payment-provider.js';
import { applyBillingEvent, openCheckout, openPortal } from '../../domain/money/billing.js';
import { implement } from '../implement.js';
import { implementJwt } from '../implement-jwt.js';
import * as internal from '../routes/internal.js';
import * as management from '../routes/management.js';

// Billing: checkout and portal sessions, and the payment provider's signed events.

/** `POST /mgmt/v1/billing/checkout`: credits are granted later, by the provider's signed event, from the price table. */
export const createCheckoutSession = implementJwt(
  management.createCheckoutSession,
  async ({ services, member, body }) => ({
    status: 200,
    body: await openCheckout(services, member, {
      price: body.price,
      successUrl: body.success_url,
      cancelUrl: body.cancel_url,
    }),
  }),
  { extend: withPaymentProvider },
);

/** `POST /mgmt/v1/billing/portal` */
export const createPortalSession = implementJwt(
  management.createPortalSession,
  async ({ services, member, body }) => ({ status: 200, body: await openPortal(services, member, body.return_url) }),
  {
    extend: withPaymentProvider,
  },
);

/**
 * `POST /internal/v1/billing/events`: the provider verifies its own signature over the raw body;
 * the domain applies the event exactly once. Duplicates and irrelevant events are still 200,
 * so the provider stops retrying them.
 */
export const receiveBillingEvent = implement(
  internal.receiveBillingEvent,
  async ({ services, request }) => {
    const event = await services.payments.parseEvent(request.body, request.headers);
    return { status: 200, body: { received: true as const, outcome: await applyBillingEvent(services, event) } };
  },
  { extend: withPaymentProvider },
);
