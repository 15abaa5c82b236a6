import { revokeOrganizationKey } from '../../domain/access/api-key-admin.js';
import { implement } from '../implement.js';
import { revokeApiKey } from '../routes/management.js';

/** `POST /mgmt/v1/api-keys/{id}/revoke`: the very next request with any of the key's secrets gets 401. */
export const handler = implement(revokeApiKey, async ({ services, member, params }) => ({ status: 200, body: await revokeOrganizationKey(services, member, params.id) }));
