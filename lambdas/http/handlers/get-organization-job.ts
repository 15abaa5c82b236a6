import { dashboardEntry } from '../dashboard-entry.js';
import { findOrganizationJob, presentDashboardJob } from '../../domain/jobs/dashboard-jobs.js';
import type { Services } from '../../domain/ports/services.js';
import { dashboardRoute } from '../dashboard-route.js';
import type { HttpHandler } from '../handler.js';
import { json } from '../response.js';
import { minimumRoleOf } from '../routes-management.js';

/** `GET /mgmt/v1/jobs/{id}`: the /v1 job plus `api_key: {id, prefix}`, either mode. */
export function getOrganizationJobHandler(services: Services): HttpHandler {
  return dashboardRoute(services, { minimumRole: minimumRoleOf('get-organization-job') }, async (request, member) => {
    const job = await findOrganizationJob(services, member, request.pathParameters.id ?? '');
    return json(200, await presentDashboardJob(services, job));
  });
}

export const handler = dashboardEntry((container) => getOrganizationJobHandler(container));
