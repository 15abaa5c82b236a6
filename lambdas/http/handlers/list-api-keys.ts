import { listOrganizationKeys } from '../../domain/access/api-key-admin.js';
import { implementJwt } from '../implement-jwt.js';
import { listApiKeys } from '../routes/management.js';

/** `GET /mgmt/v1/api-keys`: prefixes only; neither secrets nor their hashes ever leave the store. */
export const handler = implementJwt(listApiKeys, async ({ services, member, query }) => {
  const data = await listOrganizationKeys(services, member, query.livemode === undefined ? {} : { livemode: query.livemode });
  return { status: 200, body: { object: 'list' as const, data, has_more: false } };
});
