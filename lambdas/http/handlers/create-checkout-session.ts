import { billingEntry } from '../billing-entry.js';
import { openCheckout } from '../../domain/money/billing.js';
import type { Services } from '../../domain/ports/services.js';
import { CheckoutRequestSchema } from '../../schemas/management.js';
import { dashboardRoute } from '../dashboard-route.js';
import type { HttpHandler } from '../handler.js';
import { parseJsonBody } from '../json-body.js';
import { json } from '../response.js';
import { minimumRoleOf } from '../routes-management.js';

/** `POST /mgmt/v1/billing/checkout`: credits are granted later, by the provider's signed event, from the price table. */
export function createCheckoutSessionHandler(services: Services): HttpHandler {
  return dashboardRoute(services, { minimumRole: minimumRoleOf('create-checkout-session') }, async (request, member) => {
    const body = parseJsonBody(request, CheckoutRequestSchema);
    return json(200, await openCheckout(services, member, { price: body.price, successUrl: body.success_url, cancelUrl: body.cancel_url }));
  });
}

export const handler = billingEntry((container) => createCheckoutSessionHandler(container));
