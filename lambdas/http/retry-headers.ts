import type { RateWindow, RetryAdvice } from '../domain/kernel/errors.js';

/** The one policy every `/v1` window is announced under. */
export const RATE_LIMIT_POLICY_NAME = 'default';

/**
 * A rate-limit window in headers, twice with the same numbers: the legacy `RateLimit-Limit/-Remaining/-Reset`
 * (the epoch second it resets), and the fields of the IETF draft (draft-ietf-httpapi-ratelimit-headers):
 * `RateLimit-Policy` names the quota and its window length, `RateLimit` what remains and the seconds until
 * the window resets (docs/internals/idempotency-and-rate-limits.md).
 */
export function rateLimitHeaders(window: RateWindow): Record<string, string> {
  return {
    'RateLimit-Limit': String(window.limit),
    'RateLimit-Remaining': String(window.remaining),
    'RateLimit-Reset': String(window.reset),
    'RateLimit-Policy': `"${RATE_LIMIT_POLICY_NAME}";q=${window.limit};w=${window.length}`,
    RateLimit: `"${RATE_LIMIT_POLICY_NAME}";r=${window.remaining};t=${window.resetsIn}`,
  };
}

/** A refusal's advice on trying again, as its answer's headers. */
export function retryHeaders(advice: RetryAdvice): Record<string, string> {
  return {
    ...(advice.window ? rateLimitHeaders(advice.window) : {}),
    ...(advice.afterSeconds !== undefined ? { 'Retry-After': String(advice.afterSeconds) } : {}),
  };
}
