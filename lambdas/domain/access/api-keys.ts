import { createHash } from 'node:crypto';
import type { Family } from '../catalogue/catalogue.js';
import { epochSeconds } from '../kernel/clock.js';
import { ApiError } from '../kernel/errors.js';
import { randomBase58 } from '../kernel/ids.js';
import { modeOf } from '../kernel/mode.js';
import type { ApiKeyCredential } from '../ports/access.js';
import type { Services } from '../ports/services.js';
import type { Principal } from './principal.js';

const SECRET_PATTERN = /^chk_(live|test)_[1-9A-HJ-NP-Za-km-z]{32}$/;

/** `last_used_at` is kept to this resolution, so a busy key costs one conditional write per window, not one per call. */
export const LAST_USED_RESOLUTION_SECONDS = 300;
/** the longest an old secret may keep working after a rotation */
export const MAX_GRACE_SECONDS = 7 * 24 * 3600;
/** the longest a short-lived key (`expires_in_seconds`) may live */
export const MAX_KEY_LIFETIME_SECONDS = 30 * 24 * 3600;

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function newSecret(livemode: boolean): string {
  return `chk_${modeOf(livemode)}_${randomBase58(32)}`;
}

/** The readable part shown after creation: the first 12 characters and an ellipsis. */
export function displayPrefix(secret: string): string {
  return `${secret.slice(0, 12)}…`;
}

/** The key a credential names, or `401` when it is gone, revoked or expired. */
function validKey(services: Services, secretHash: string, credential: ApiKeyCredential | null): ApiKeyCredential {
  const now = epochSeconds(services.clock);
  const expired = (at: number | null) => at !== null && at <= now;
  if (
    !credential ||
    credential.key.revoked_at !== null ||
    expired(credential.key.expires_at) ||
    expired(credential.secretExpiresAt)
  ) {
    services.principals.forget(secretHash);
    throw new ApiError('invalid_api_key', 'Authorization');
  }
  return credential;
}

/**
 * Resolves a presented API key to its principal with a strongly consistent read, so a revoked key
 * fails on the very next request. With `provisional` (admissions only), a principal read in the
 * last minute is reused without a read: the admission's transaction holds to the keys version read
 * with it (`expectKeysVersion`), so a revocation since then refuses it, and the admission reads
 * again (`admit`, domain/jobs/admission.ts).
 */
export async function authenticateApiKey(
  services: Services,
  secret: string | null,
  options: { provisional?: boolean } = {},
): Promise<Principal> {
  if (!secret || !SECRET_PATTERN.test(secret)) throw new ApiError('invalid_api_key', 'Authorization');
  return authenticateSecretHash(services, hashSecret(secret), options);
}

/**
 * `authenticateApiKey` from the secret's hash: what a batch keeps of the key that created it, so
 * each of its lines is admitted as that key, and stops being admitted once it is revoked.
 */
export async function authenticateSecretHash(
  services: Services,
  secretHash: string,
  options: { provisional?: boolean } = {},
): Promise<Principal> {
  if (options.provisional) {
    const cached = services.principals.get(secretHash, services.clock.nowMs());
    if (cached) return { ...cached, secretHash, provisional: true };
  }
  let { key, secretExpiresAt } = validKey(services, secretHash, await services.accounts.findCredential(secretHash));
  let keysVersion: number | undefined;
  if (options.provisional) {
    // The version must come in one snapshot with the secret: a revocation committed after the
    // snapshot changes the version, one committed before it shows in the secret. (The first read
    // only told which organisation's version to read.)
    const snapshot = await services.accounts.findCredentialWithKeysVersion(secretHash, key.org_id, key.livemode);
    ({ key, secretExpiresAt } = validKey(services, secretHash, snapshot.credential));
    keysVersion = snapshot.keysVersion;
  }
  const now = epochSeconds(services.clock);
  const staleBefore = now - LAST_USED_RESOLUTION_SECONDS;
  if (key.last_used_at === null || key.last_used_at < staleBefore) {
    // fire and forget: recording use must never slow down or fail the request
    services.accounts
      .touchApiKey(secretHash, key, now, staleBefore)
      .catch((error: unknown) =>
        services.log.warn('could not record last_used_at', { key_id: key.id, error: String(error) }),
      );
  }
  const principal: Principal = {
    orgId: key.org_id,
    apiKeyId: key.id,
    livemode: key.livemode,
    scopes: key.scopes,
    spendLimit: key.spend_limit ?? null,
  };
  if (keysVersion === undefined) return { ...principal, secretHash, provisional: false };
  // only a principal with its keys version is of use to a later admission
  const expiries = [key.expires_at, secretExpiresAt].filter((at): at is number => at !== null);
  services.principals.remember(
    secretHash,
    { ...principal, keysVersion },
    expiries.length ? Math.min(...expiries) : null,
    services.clock.nowMs(),
  );
  return { ...principal, keysVersion, secretHash, provisional: false };
}

export function requireFamily(principal: Principal, family: Family): void {
  if (!principal.scopes.includes(family))
    throw new ApiError('scope_not_granted', null, `This API key is not granted the endpoint family ${family}.`);
}
