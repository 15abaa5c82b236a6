import { applyBillingEvent } from '../../../domain/money/billing.js';
import { BillingEventAckSchema } from '../../../schemas/management.js';
import { implement } from '../../implement.js';
import { defineRoute, JSON_BODY_BYTES } from '../define.js';

export const route = defineRoute({
  module: import.meta.url,
  id: 'receive-billing-event',
  method: 'POST',
  path: '/internal/v1/billing/events',
  summary: "The payment provider's signed events (Stripe-Signature); deposits credits exactly once per event",
  tag: 'Internal',
  auth: 'signature',
  middleware: [],
  signatureHeader: 'Stripe-Signature',
  responses: { 200: { description: 'acknowledged', schema: BillingEventAckSchema } },
  errors: [],
  // the exactly-once deposit transaction
  access: { table: 'readwrite' },
  settings: ['payments'],
  timeoutSeconds: 10,
  maxBodyBytes: JSON_BODY_BYTES,
});

/**
 * `POST /internal/v1/billing/events`: the provider verifies its own signature over the raw body;
 * the domain applies the event exactly once. Duplicates and irrelevant events are still 200,
 * so the provider stops retrying them.
 */
export const handler = implement(
  route,
  async ({ services, request }) => {
    const event = await services.payments.parseEvent(request.body, request.headers);
    return { status: 200, body: { received: true as const, outcome: await applyBillingEvent(services, event) } };
  },
  { extend: async () => (await import('../../../composition/payment-provider.js')).withPaymentProvider },
);
