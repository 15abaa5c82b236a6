import { revokeOrganizationKey } from '../../domain/access/api-key-admin.js';
import { implementJwt } from '../implement-jwt.js';
import { revokeApiKey } from '../routes/management.js';

/** `POST /mgmt/v1/api-keys/{id}/revoke`: the very next request with any of the key's secrets gets 401. */
export const handler = implementJwt(revokeApiKey, async ({ services, member, params }) => ({ status: 200, body: await revokeOrganizationKey(services, member, params.id) }));
