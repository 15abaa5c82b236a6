import { dashboardEntry } from '../dashboard-entry.js';
import { createOrganizationKey } from '../../domain/access/api-key-admin.js';
import type { Services } from '../../domain/ports/services.js';
import { CreateApiKeySchema } from '../../schemas/management.js';
import { dashboardRoute } from '../dashboard-route.js';
import type { HttpHandler } from '../handler.js';
import { parseJsonBody } from '../json-body.js';
import { json } from '../response.js';
import { minimumRoleOf } from '../routes-management.js';

/** `POST /mgmt/v1/api-keys`: the secret is in this response and nowhere else, ever. */
export function createApiKeyHandler(services: Services): HttpHandler {
  return dashboardRoute(services, { minimumRole: minimumRoleOf('create-api-key'), idempotency: 'without-secret' }, async (request, member) => {
    const body = parseJsonBody(request, CreateApiKeySchema);
    return json(201, await createOrganizationKey(services, member, body));
  });
}

export const handler = dashboardEntry((container) => createApiKeyHandler(container));
