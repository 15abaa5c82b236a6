import { rotateOrganizationKey } from '../../../domain/access/api-key-admin.js';
import { ApiKeyIdParams, ApiKeyWithSecretSchema, RotateApiKeySchema } from '../../../schemas/management.js';
import { implementJwt } from '../../implement-jwt.js';
import { managementRoute } from '../define.js';

export const route = managementRoute({
  module: import.meta.url,
  id: 'rotate-api-key',
  method: 'POST',
  path: '/mgmt/v1/api-keys/{id}/rotate',
  minimumRole: 'admin',
  summary: 'Rotate an API key: a new secret for the same key; the old one works for grace_seconds more',
  params: ApiKeyIdParams,
  notFound: 'api_key_not_found',
  body: RotateApiKeySchema,
  responses: { 200: { description: 'the key, with its new secret', schema: ApiKeyWithSecretSchema } },
  errors: ['api_key_not_found', 'api_key_revoked'],
  middleware: ['idempotency-without-secret', 'strict-input'],
  access: { table: 'readwrite' },
});

/** `POST /mgmt/v1/api-keys/{id}/rotate`: a new secret for the same key id, shown once. */
export const handler = implementJwt(route, async ({ services, member, params, body }) => ({
  status: 200,
  body: await rotateOrganizationKey(services, member, params.id, body.grace_seconds),
}));
