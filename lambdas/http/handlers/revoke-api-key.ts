import { dashboardEntry } from '../dashboard-entry.js';
import { revokeOrganizationKey } from '../../domain/access/api-key-admin.js';
import type { Services } from '../../domain/ports/services.js';
import { dashboardRoute } from '../dashboard-route.js';
import type { HttpHandler } from '../handler.js';
import { json } from '../response.js';
import { minimumRoleOf } from '../routes-management.js';

/** `POST /mgmt/v1/api-keys/{id}/revoke`: the very next request with any of the key's secrets gets 401. */
export function revokeApiKeyHandler(services: Services): HttpHandler {
  return dashboardRoute(services, { minimumRole: minimumRoleOf('revoke-api-key') }, async (request, member) =>
    json(200, await revokeOrganizationKey(services, member, request.pathParameters.id ?? '')),
  );
}

export const handler = dashboardEntry((container) => revokeApiKeyHandler(container));
