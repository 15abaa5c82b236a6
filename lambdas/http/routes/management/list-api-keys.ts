import { listOrganizationKeys } from '../../../domain/access/api-key-admin.js';
import { listOf } from '../../../domain/kernel/page.js';
import { ApiKeyListQuerySchema, ApiKeyListSchema } from '../../../schemas/management.js';
import { implementJwt } from '../../implement-jwt.js';
import { managementRoute } from '../define.js';

export const route = managementRoute({
  module: import.meta.url,
  id: 'list-api-keys',
  method: 'GET',
  path: '/mgmt/v1/api-keys',
  minimumRole: 'member',
  summary: "List the organisation's API keys (prefix only, never the secret)",
  query: ApiKeyListQuerySchema,
  responses: { 200: { description: 'every key, newest first', schema: ApiKeyListSchema } },
  errors: [],
  access: { table: 'read' },
});

/** `GET /mgmt/v1/api-keys`: prefixes only; neither secrets nor their hashes ever leave the store. */
export const handler = implementJwt(route, async ({ services, member, query }) => {
  const data = await listOrganizationKeys(
    services,
    member,
    query.livemode === undefined ? {} : { livemode: query.livemode },
  );
  return { status: 200, body: listOf(data) };
});
