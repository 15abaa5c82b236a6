import {
  createOrganizationKey,
  listOrganizationKeys,
  revokeOrganizationKey,
  rotateOrganizationKey,
  setKeySpendLimit,
} from '../../domain/access/api-key-admin.js';
import { implementJwt } from '../implement-jwt.js';
import * as management from '../routes/management.js';

// API keys (management surface): list, create, rotate, revoke, spend limits.

/** `GET /mgmt/v1/api-keys`: prefixes only; neither secrets nor their hashes ever leave the store. */
export const listApiKeys = implementJwt(management.listApiKeys, async ({ services, member, query }) => {
  const data = await listOrganizationKeys(
    services,
    member,
    query.livemode === undefined ? {} : { livemode: query.livemode },
  );
  return { status: 200, body: { object: 'list' as const, data, has_more: false } };
});

/** `POST /mgmt/v1/api-keys`: the secret is in this response and nowhere else, ever. */
export const createApiKey = implementJwt(management.createApiKey, async ({ services, member, body }) => ({
  status: 201,
  body: await createOrganizationKey(services, member, body),
}));

/** `POST /mgmt/v1/api-keys/{id}/rotate`: a new secret for the same key id, shown once. */
export const rotateApiKey = implementJwt(management.rotateApiKey, async ({ services, member, params, body }) => ({
  status: 200,
  body: await rotateOrganizationKey(services, member, params.id, body.grace_seconds),
}));

/** `POST /mgmt/v1/api-keys/{id}/revoke`: the very next request with any of the key's secrets gets 401. */
export const revokeApiKey = implementJwt(management.revokeApiKey, async ({ services, member, params }) => ({
  status: 200,
  body: await revokeOrganizationKey(services, member, params.id),
}));

/** `POST /mgmt/v1/api-keys/{id}/spend-limit`: the limit holds from the key's next call (docs/spend-limits.md). */
export const setApiKeySpendLimit = implementJwt(
  management.setApiKeySpendLimit,
  async ({ services, member, params, body }) => ({
    status: 200,
    body: await setKeySpendLimit(services, member, params.id, body.spend_limit),
  }),
);
