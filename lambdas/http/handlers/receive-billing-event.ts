import { withPaymentProvider } from '../../composition/payment-provider.js';
import { applyBillingEvent } from '../../domain/money/billing.js';
import { implement } from '../implement.js';
import { receiveBillingEvent } from '../routes/internal.js';

/**
 * `POST /internal/v1/billing/events`: the provider verifies its own signature over the raw body;
 * the domain applies the event exactly once. Duplicates and irrelevant events are still 200,
 * so the provider stops retrying them.
 */
export const handler = implement(
  receiveBillingEvent,
  async ({ services, request }) => {
    const event = await services.payments.parseEvent(request.body, request.headers);
    return { status: 200, body: { received: true as const, outcome: await applyBillingEvent(services, event) } };
  },
  { extend: withPaymentProvider },
);
