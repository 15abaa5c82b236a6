import { dashboardEntry } from '../dashboard-entry.js';
import type { Services } from '../../domain/ports/services.js';
import { usageWindow } from '../../domain/money/usage.js';
import { UsageQuerySchema } from '../../schemas/management.js';
import { dashboardRoute } from '../dashboard-route.js';
import type { HttpHandler } from '../handler.js';
import { singleValuedQuery } from '../query.js';
import { json } from '../response.js';
import { minimumRoleOf } from '../routes-management.js';
import { validateParams } from '../validation.js';

/** `GET /mgmt/v1/usage`: rows kept by the admission and settlement transactions; no job is scanned. */
export function listUsageHandler(services: Services): HttpHandler {
  return dashboardRoute(services, { minimumRole: minimumRoleOf('list-usage') }, async (request, member) => {
    const query = validateParams(UsageQuerySchema, singleValuedQuery(request));
    const data = await services.usage.list({
      orgId: member.orgId,
      ...usageWindow(services.clock.nowMs(), query.from, query.to),
      ...(query.endpoint ? { endpoint: query.endpoint } : {}),
      ...(query.livemode === undefined ? {} : { livemode: query.livemode }),
    });
    return json(200, { object: 'list', data, has_more: false });
  });
}

export const handler = dashboardEntry((container) => listUsageHandler(container));
