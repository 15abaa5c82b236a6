import { dashboardEntry } from '../dashboard-entry.js';
import { listOrganizationKeys } from '../../domain/access/api-key-admin.js';
import type { Services } from '../../domain/ports/services.js';
import { ApiKeyListQuerySchema } from '../../schemas/management.js';
import { dashboardRoute } from '../dashboard-route.js';
import type { HttpHandler } from '../handler.js';
import { singleValuedQuery } from '../query.js';
import { json } from '../response.js';
import { minimumRoleOf } from '../routes-management.js';
import { validateParams } from '../validation.js';

/** `GET /mgmt/v1/api-keys`: prefixes only; neither secrets nor their hashes ever leave the store. */
export function listApiKeysHandler(services: Services): HttpHandler {
  return dashboardRoute(services, { minimumRole: minimumRoleOf('list-api-keys') }, async (request, member) => {
    const query = validateParams(ApiKeyListQuerySchema, singleValuedQuery(request));
    const data = await listOrganizationKeys(services, member, { ...(query.livemode === undefined ? {} : { livemode: query.livemode }) });
    return json(200, { object: 'list', data, has_more: false });
  });
}

export const handler = dashboardEntry((container) => listApiKeysHandler(container));
