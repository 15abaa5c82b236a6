import { rotateOrganizationKey } from '../../domain/access/api-key-admin.js';
import { implementJwt } from '../implement-jwt.js';
import { rotateApiKey } from '../routes/management.js';

/** `POST /mgmt/v1/api-keys/{id}/rotate`: a new secret for the same key id, shown once. */
export const handler = implementJwt(rotateApiKey, async ({ services, member, params, body }) => ({
  status: 200,
  body: await rotateOrganizationKey(services, member, params.id, body.grace_seconds),
}));
