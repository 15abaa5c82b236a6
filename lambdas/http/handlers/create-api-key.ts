import { createOrganizationKey } from '../../domain/access/api-key-admin.js';
import { implementJwt } from '../implement-jwt.js';
import { createApiKey } from '../routes/management.js';

/** `POST /mgmt/v1/api-keys`: the secret is in this response and nowhere else, ever. */
export const handler = implementJwt(createApiKey, async ({ services, member, body }) => ({ status: 201, body: await createOrganizationKey(services, member, body) }));
