import { setKeySpendLimit } from '../../../domain/access/api-key-admin.js';
import { ApiKeyIdParams, ApiKeySchema, SetSpendLimitSchema } from '../../../schemas/management.js';
import { implementJwt } from '../../implement-jwt.js';
import { managementRoute } from '../define.js';

export const route = managementRoute({
  module: import.meta.url,
  id: 'set-api-key-spend-limit',
  method: 'POST',
  path: '/mgmt/v1/api-keys/{id}/spend-limit',
  minimumRole: 'admin',
  summary: "Set or remove an API key's spend limit per UTC day or month; it holds from the next call",
  params: ApiKeyIdParams,
  notFound: 'api_key_not_found',
  body: SetSpendLimitSchema,
  responses: {
    200: { description: 'the key, with its limit and its spend in the current period', schema: ApiKeySchema },
  },
  errors: ['api_key_not_found'],
  // a transaction over the key, its secrets and the keys version; reads the key's spend counter
  access: { table: 'readwrite' },
});

/** `POST /mgmt/v1/api-keys/{id}/spend-limit`: the limit holds from the key's next call (docs/internals/spend-limits.md). */
export const handler = implementJwt(route, async ({ services, member, params, body }) => ({
  status: 200,
  body: await setKeySpendLimit(services, member, params.id, body.spend_limit),
}));
