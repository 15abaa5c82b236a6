/** The one policy every `/v1` window is announced under. */
export const RATE_LIMIT_POLICY_NAME = 'default';

/** One fixed window as the legacy headers state it: its limit, what is left, and the epoch second it resets. */
export interface WindowState {
  limit: number;
  remaining: number;
  reset: number;
}

/**
 * The same window in the fields of the IETF draft (draft-ietf-httpapi-ratelimit-headers), sent beside
 * `RateLimit-Limit/-Remaining/-Reset` with the same numbers: `RateLimit-Policy` names the quota and its
 * window length, `RateLimit` what remains and the seconds until the window resets (docs/idempotency-and-rate-limits.md).
 */
export function ietfRateLimitFields(
  window: WindowState,
  nowSeconds: number,
  windowSeconds: number,
): Record<'RateLimit-Policy' | 'RateLimit', string> {
  return {
    'RateLimit-Policy': `"${RATE_LIMIT_POLICY_NAME}";q=${window.limit};w=${windowSeconds}`,
    RateLimit: `"${RATE_LIMIT_POLICY_NAME}";r=${window.remaining};t=${Math.max(0, window.reset - nowSeconds)}`,
  };
}
