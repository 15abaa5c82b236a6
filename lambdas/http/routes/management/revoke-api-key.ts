import { revokeOrganizationKey } from '../../../domain/access/api-key-admin.js';
import { ApiKeyIdParams, ApiKeySchema } from '../../../schemas/management.js';
import { implementJwt } from '../../implement-jwt.js';
import { managementRoute } from '../define.js';

export const route = managementRoute({
  module: import.meta.url,
  id: 'revoke-api-key',
  method: 'POST',
  path: '/mgmt/v1/api-keys/{id}/revoke',
  minimumRole: 'admin',
  summary: 'Revoke an API key: immediate and irreversible; admitted jobs still finish',
  params: ApiKeyIdParams,
  notFound: 'api_key_not_found',
  responses: { 200: { description: 'the revoked key', schema: ApiKeySchema } },
  errors: ['api_key_not_found'],
  access: { table: 'readwrite' },
});

/** `POST /mgmt/v1/api-keys/{id}/revoke`: the very next request with any of the key's secrets gets 401. */
export const handler = implementJwt(route, async ({ services, member, params }) => ({
  status: 200,
  body: await revokeOrganizationKey(services, member, params.id),
}));
