import { createOrganizationKey } from '../../../domain/access/api-key-admin.js';
import { ApiKeyWithSecretSchema, CreateApiKeySchema } from '../../../schemas/management.js';
import { implementJwt } from '../../implement-jwt.js';
import { managementRoute } from '../define.js';

export const route = managementRoute({
  module: import.meta.url,
  id: 'create-api-key',
  method: 'POST',
  path: '/mgmt/v1/api-keys',
  minimumRole: 'admin',
  summary: 'Create an API key; its secret is shown once',
  body: CreateApiKeySchema,
  responses: { 201: { description: 'the key, with its secret', schema: ApiKeyWithSecretSchema } },
  // the token's organisation does not exist
  errors: ['resource_not_found'],
  middleware: ['idempotency-without-secret', 'strict-input'],
  // transactions over the key, its secrets and its pointer item
  access: { table: 'readwrite' },
});

/** `POST /mgmt/v1/api-keys`: the secret is in this response and nowhere else, ever. */
export const handler = implementJwt(route, async ({ services, member, body }) => ({
  status: 201,
  body: await createOrganizationKey(services, member, body),
}));
