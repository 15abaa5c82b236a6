import { createHash } from 'node:crypto';
import { epochSeconds } from '../kernel/clock.js';
import { ApiError, errorEnvelope } from '../kernel/errors.js';
import { randomBase58 } from '../kernel/ids.js';
import type { Mode } from '../kernel/mode.js';
import type { IdempotencyRecord, StoredResponse } from '../ports/access.js';
import type { Services } from '../ports/services.js';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
/** how long a response is kept for replay */
export const RETENTION_SECONDS = 24 * 3600;
/** how long a request may hold its key before another request may take over (longer than any wait) */
export const LOCK_SECONDS = 60;

/** A claimed key, handed to the code that runs the request. */
export interface IdempotencyClaim {
  scopeKey: string;
  lockToken: string;
}

export type ClaimOutcome = { kind: 'claimed'; claim: IdempotencyClaim } | { kind: 'replay'; response: StoredResponse };

export function validateIdempotencyKey(key: string): void {
  if (key.length < 8 || key.length > 255)
    throw new ApiError('parameter_invalid', IDEMPOTENCY_HEADER, 'Idempotency-Key must be 8 to 255 characters long.');
}

/** Keys are scoped to the organisation and mode (or the management surface) and stored hashed. */
export function idempotencyScopeKey(scope: string, key: string): string {
  return `${scope}#${createHash('sha256').update(key).digest('hex')}`;
}

/**
 * The scope an Idempotency-Key is unique in: an API key's organisation and mode, or the
 * organisation's dashboard (`mgmt`). The one place the scope string is written.
 */
export function idempotencyScope(orgId: string, surface: Mode | 'mgmt'): string {
  return `${orgId}#${surface}`;
}

export async function claimIdempotencyKey(
  services: Services,
  scope: string,
  key: string,
  fingerprint: string,
): Promise<ClaimOutcome> {
  validateIdempotencyKey(key);
  const now = epochSeconds(services.clock);
  const record: IdempotencyRecord = {
    scope_key: idempotencyScopeKey(scope, key),
    fingerprint,
    status: 'in_progress',
    lock_token: randomBase58(16),
    lock_expires_at: now + LOCK_SECONDS,
    expires_at: now + RETENTION_SECONDS,
    response: null,
  };
  const holder = await services.idempotency.claim(record, now);
  if (!holder) return { kind: 'claimed', claim: { scopeKey: record.scope_key, lockToken: record.lock_token } };
  if (holder.fingerprint !== fingerprint) {
    throw new ApiError(
      'idempotency_key_reuse',
      IDEMPOTENCY_HEADER,
      'This Idempotency-Key was already used with a different request (method, path or content).',
    );
  }
  const settling = holder.settling_until !== undefined && holder.settling_until > now;
  if (holder.status === 'completed' && holder.response && !settling)
    return { kind: 'replay', response: holder.response };
  const retryAfter = Math.max(1, Math.min((settling ? holder.settling_until! : holder.lock_expires_at) - now, 5));
  throw new ApiError(
    'idempotency_key_in_use',
    IDEMPOTENCY_HEADER,
    'A request with this Idempotency-Key is still being processed; retry shortly.',
    { afterSeconds: retryAfter },
  );
}

/** Only final answers are kept: a 5xx must be retryable with the same key, and so must a 429. */
export function isStorable(status: number): boolean {
  return status < 500 && status !== 429;
}

/** The stored form of a refusal: its envelope, as the request that made it answered it. */
export function storedRefusal(error: ApiError, requestId: string, docsUrl: string): StoredResponse {
  return {
    status: error.status,
    contentType: 'application/json',
    body: errorEnvelope(error.code, requestId, docsUrl, error.param, error.message),
  };
}

/** Ends a claim with the request's answer: a final one is kept for replay; anything else (none, a 5xx, a 429) frees the key for a retry. */
export async function finishClaim(
  services: Services,
  claim: IdempotencyClaim,
  answer: StoredResponse | null,
): Promise<void> {
  if (answer && isStorable(answer.status)) await services.idempotency.complete(claim.scopeKey, claim.lockToken, answer);
  else await services.idempotency.release(claim.scopeKey, claim.lockToken).catch(() => undefined);
}
