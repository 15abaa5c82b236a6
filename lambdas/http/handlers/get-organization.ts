import { dashboardEntry } from '../dashboard-entry.js';
import type { Services } from '../../domain/ports/services.js';
import { presentOrganization } from '../../domain/access/organization-view.js';
import { dashboardRoute } from '../dashboard-route.js';
import type { HttpHandler } from '../handler.js';
import { json } from '../response.js';
import { minimumRoleOf } from '../routes-management.js';

/** `GET /mgmt/v1/organization` */
export function getOrganizationHandler(services: Services): HttpHandler {
  return dashboardRoute(services, { minimumRole: minimumRoleOf('get-organization') }, async (_request, member) => json(200, await presentOrganization(services, member)));
}

export const handler = dashboardEntry((container) => getOrganizationHandler(container));
