import { billingEntry } from '../billing-entry.js';
import { applyBillingEvent } from '../../domain/money/billing.js';
import type { Services } from '../../domain/ports/services.js';
import { httpHandler, type HttpHandler } from '../handler.js';
import { json } from '../response.js';

/**
 * `POST /internal/v1/billing/events`: the provider verifies its own signature over the raw body;
 * the domain applies the event exactly once. Duplicates and irrelevant events are still 200,
 * so the provider stops retrying them.
 */
export function receiveBillingEventHandler(services: Services): HttpHandler {
  return httpHandler(services, async (request) => {
    const event = await services.payments.parseEvent(request.body, request.headers);
    return json(200, { received: true, outcome: await applyBillingEvent(services, event) });
  });
}

export const handler = billingEntry((container) => receiveBillingEventHandler(container));
