import { dashboardEntry } from '../dashboard-entry.js';
import type { Services } from '../../domain/ports/services.js';
import { presentJobPage } from '../../domain/jobs/job-view.js';
import { DashboardJobListQuerySchema } from '../../schemas/management.js';
import { dashboardRoute } from '../dashboard-route.js';
import type { HttpHandler } from '../handler.js';
import { singleValuedQuery } from '../query.js';
import { json } from '../response.js';
import { minimumRoleOf } from '../routes-management.js';
import { validateParams } from '../validation.js';

/** `GET /mgmt/v1/jobs`: the page shape of GET /v1/jobs, across every key of the organisation and both modes. */
export function listOrganizationJobsHandler(services: Services): HttpHandler {
  return dashboardRoute(services, { minimumRole: minimumRoleOf('list-organization-jobs') }, async (request, member) => {
    const query = validateParams(DashboardJobListQuerySchema, singleValuedQuery(request));
    const page = await presentJobPage(services, {
      orgId: member.orgId,
      limit: query.limit,
      ...(query.livemode === undefined ? {} : { livemode: query.livemode }),
      ...(query.starting_after ? { startingAfter: query.starting_after } : {}),
      ...(query.status ? { status: query.status } : {}),
      ...(query.endpoint ? { endpoint: query.endpoint } : {}),
    });
    return json(200, page);
  });
}

export const handler = dashboardEntry((container) => listOrganizationJobsHandler(container));
