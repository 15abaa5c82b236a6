import { dashboardEntry } from '../dashboard-entry.js';
import { depositTestCredits } from '../../domain/money/billing.js';
import type { Services } from '../../domain/ports/services.js';
import { TestCreditsRequestSchema } from '../../schemas/management.js';
import { dashboardRoute } from '../dashboard-route.js';
import type { HttpHandler } from '../handler.js';
import { parseJsonBody } from '../json-body.js';
import { json } from '../response.js';
import { minimumRoleOf } from '../routes-management.js';

/** `POST /mgmt/v1/billing/test-credits`: the test balance only; free, never invoiced. */
export function createTestCreditsHandler(services: Services): HttpHandler {
  return dashboardRoute(services, { minimumRole: minimumRoleOf('create-test-credits') }, async (request, member) => {
    const body = parseJsonBody(request, TestCreditsRequestSchema);
    return json(200, await depositTestCredits(services, member, body.amount));
  });
}

export const handler = dashboardEntry((container) => createTestCreditsHandler(container));
