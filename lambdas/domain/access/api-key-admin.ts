import type * as z from 'zod/mini';
import type { ApiKeySchema, ApiKeyWithSecretSchema } from '../../schemas/management.js';
import type { Family } from '../catalogue/catalogue.js';
import { epochSeconds } from '../kernel/clock.js';
import { ApiError } from '../kernel/errors.js';
import { ID_BODY_PATTERN } from '../kernel/ids.js';
import type { ApiKeyRecord, SpendLimit } from '../ports/access.js';
import type { Services } from '../ports/services.js';
import { displayPrefix, hashSecret, newSecret } from './api-keys.js';
import type { Member } from './member.js';
import { requireSameOrganization } from './members.js';
import { createApiKey } from './organizations.js';
import { spendCounterOf, spendPeriodOf } from './spend-limits.js';

const KEY_ID_PATTERN = new RegExp(`^key_${ID_BODY_PATTERN}$`);

/** The API key as the management surface shows it: never the hash, the secret only on create and rotate. */
export type PublicApiKey = z.output<typeof ApiKeySchema>;
type PublicApiKeyWithSecret = z.output<typeof ApiKeyWithSecretSchema>;

/** Keys as the management surface shows them, each with its spend in the current UTC period (one read per key). */
export async function presentApiKeys(services: Services, keys: readonly ApiKeyRecord[]): Promise<PublicApiKey[]> {
  const now = epochSeconds(services.clock);
  // without a limit, the month: what a dashboard shows beside the balance
  const periods = keys.map((key) => key.spend_limit?.period ?? 'month');
  const spent = keys.length
    ? await services.accounts.readKeySpend(keys.map((key, i) => spendCounterOf(key.id, periods[i]!, now)))
    : [];
  // a counter may stand below zero for a period whose reservations were made before counting began
  return keys.map((key, i) => ({
    ...presentApiKey(key),
    spent: { credits: Math.max(0, spent[i]!), period_start: spendPeriodOf(periods[i]!, now).start },
  }));
}

async function presentOne(services: Services, key: ApiKeyRecord): Promise<PublicApiKey> {
  return (await presentApiKeys(services, [key]))[0]!;
}

function presentApiKey(key: ApiKeyRecord): Omit<PublicApiKey, 'spent'> {
  return {
    id: key.id,
    object: 'api_key',
    name: key.name,
    livemode: key.livemode,
    prefix: key.prefix,
    scopes: [...key.scopes],
    created: key.created,
    last_used_at: key.last_used_at,
    revoked_at: key.revoked_at,
    expires_at: key.expires_at,
    spend_limit: key.spend_limit ? { ...key.spend_limit } : null,
  };
}

async function presentWithSecret(
  services: Services,
  key: ApiKeyRecord,
  secret: string,
): Promise<PublicApiKeyWithSecret> {
  return { ...(await presentOne(services, key)), secret };
}

export async function listOrganizationKeys(
  services: Services,
  member: Member,
  filter: { livemode?: boolean },
): Promise<PublicApiKey[]> {
  const keys = await services.accounts.listApiKeys(member.orgId);
  return presentApiKeys(
    services,
    keys.filter((key) => filter.livemode === undefined || key.livemode === filter.livemode),
  );
}

export async function createOrganizationKey(
  services: Services,
  member: Member,
  input: {
    name: string;
    livemode: boolean;
    scopes?: Family[] | undefined;
    expires_in_seconds?: number | undefined;
    spend_limit?: SpendLimit | null | undefined;
  },
): Promise<PublicApiKeyWithSecret> {
  const { key, secret } = await createApiKey(services, member.orgId, {
    name: input.name,
    livemode: input.livemode,
    spendLimit: input.spend_limit ?? null,
    ...(input.scopes ? { scopes: input.scopes } : {}),
    ...(input.expires_in_seconds === undefined ? {} : { expiresInSeconds: input.expires_in_seconds }),
  });
  return presentWithSecret(services, key, secret);
}

/** Absent → 404; another organisation's → 403. */
async function findOwnedKey(services: Services, member: Member, keyId: string): Promise<ApiKeyRecord> {
  const key = KEY_ID_PATTERN.test(keyId) ? await services.accounts.getApiKey(keyId) : null;
  if (!key) throw new ApiError('api_key_not_found', 'id', `No such API key: ${keyId}.`);
  requireSameOrganization(member, key.org_id, 'API key');
  return key;
}

/** Immediate and irreversible; revoking again answers the already-revoked key. Jobs already admitted keep running. */
export async function revokeOrganizationKey(services: Services, member: Member, keyId: string): Promise<PublicApiKey> {
  const key = await findOwnedKey(services, member, keyId);
  const revoked = await services.accounts.revokeApiKey(key.org_id, key.id, epochSeconds(services.clock));
  if (!revoked) throw new ApiError('api_key_not_found', 'id', `No such API key: ${keyId}.`);
  return presentOne(services, revoked);
}

/**
 * Sets or removes a key's spend limit, from the very next admission on (the keys version changes
 * with it, so no cached principal holds the old limit). A revoked key keeps its record, so it may
 * still be set; it admits nothing anyway.
 */
export async function setKeySpendLimit(
  services: Services,
  member: Member,
  keyId: string,
  limit: SpendLimit | null,
): Promise<PublicApiKey> {
  const key = await findOwnedKey(services, member, keyId);
  const updated = await services.accounts.setApiKeySpendLimit(key.org_id, key.id, limit);
  if (!updated) throw new ApiError('api_key_not_found', 'id', `No such API key: ${keyId}.`);
  return presentOne(services, updated);
}

/** A new secret for the same key id; every older secret stops working `graceSeconds` from now (0: at once). */
export async function rotateOrganizationKey(
  services: Services,
  member: Member,
  keyId: string,
  graceSeconds: number,
): Promise<PublicApiKeyWithSecret> {
  const key = await findOwnedKey(services, member, keyId);
  const now = epochSeconds(services.clock);
  const secret = newSecret(key.livemode);
  const rotated = await services.accounts.rotateApiKey(key.org_id, key.id, {
    secretHash: hashSecret(secret),
    prefix: displayPrefix(secret),
    now,
    oldSecretsExpireAt: now + graceSeconds,
  });
  if (rotated === null) throw new ApiError('api_key_not_found', 'id', `No such API key: ${keyId}.`);
  if (rotated === 'revoked') throw new ApiError('api_key_revoked', 'id');
  return presentWithSecret(services, rotated, secret);
}

/** The producing key of a job, for audit; null when it no longer exists. */
export async function auditKeyOf(services: Services, keyId: string): Promise<{ id: string; prefix: string | null }> {
  const key = await services.accounts.getApiKey(keyId);
  return { id: keyId, prefix: key?.prefix ?? null };
}
