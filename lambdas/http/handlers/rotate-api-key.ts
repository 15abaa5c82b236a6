import { dashboardEntry } from '../dashboard-entry.js';
import { rotateOrganizationKey } from '../../domain/access/api-key-admin.js';
import type { Services } from '../../domain/ports/services.js';
import { RotateApiKeySchema } from '../../schemas/management.js';
import { dashboardRoute } from '../dashboard-route.js';
import type { HttpHandler } from '../handler.js';
import { parseJsonBody } from '../json-body.js';
import { json } from '../response.js';
import { minimumRoleOf } from '../routes-management.js';

/** `POST /mgmt/v1/api-keys/{id}/rotate`: a new secret for the same key id, shown once. */
export function rotateApiKeyHandler(services: Services): HttpHandler {
  return dashboardRoute(services, { minimumRole: minimumRoleOf('rotate-api-key'), idempotency: 'without-secret' }, async (request, member) => {
    const body = parseJsonBody(request, RotateApiKeySchema);
    return json(200, await rotateOrganizationKey(services, member, request.pathParameters.id ?? '', body.grace_seconds));
  });
}

export const handler = dashboardEntry((container) => rotateApiKeyHandler(container));
