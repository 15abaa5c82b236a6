/**
 * docs/internals/webhooks.md, "Retries": attempts at +0, then after gaps of 30 s, 2 min, 10 min, 30 min, 1 h,
 * 3 h, 6 h and 12 h (≈ 22.7 h in all), each gap ±20 % jitter, and a last attempt 24 h after the
 * first, never earlier, so the whole 24 h window is covered whatever the jitter.
 */
export const RETRY_DELAYS_SECONDS = [30, 120, 600, 1800, 3600, 10_800, 21_600, 43_200] as const;
/** The last attempt comes this long after the first, never sooner. */
export const LAST_ATTEMPT_AFTER_SECONDS = 24 * 3600;
/** the regular attempts, then the last one at 24 h */
export const MAX_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 2;
export const JITTER = 0.2;

/**
 * The regular gap after failed attempt number `attempt` (1-based), or null once the regular
 * attempts are spent (the ninth). `random` is uniform in [0, 1). A `Retry-After` is honoured up to
 * the slot after the next one: the wait is at least what the receiver asked, never longer than
 * the following slot's delay.
 */
export function nextRetryDelaySeconds(
  attempt: number,
  random: () => number,
  retryAfterSeconds: number | null = null,
): number | null {
  if (attempt < 1 || attempt > RETRY_DELAYS_SECONDS.length) return null;
  const scheduled = RETRY_DELAYS_SECONDS[attempt - 1]!;
  const jittered = Math.round(scheduled * (1 - JITTER + 2 * JITTER * random()));
  if (retryAfterSeconds === null || retryAfterSeconds <= jittered) return jittered;
  const ceiling = RETRY_DELAYS_SECONDS[attempt] ?? scheduled;
  return Math.min(retryAfterSeconds, Math.max(ceiling, jittered));
}

/**
 * Seconds to wait after failed attempt number `attempt`, made `sinceFirstAttemptSeconds` after the
 * first attempt; null when it was the last. The regular gaps come first; after the ninth attempt one
 * more is made exactly 24 h after the first. When the jitter has already carried the ninth attempt to
 * 24 h or beyond, that attempt was the last: the window is covered either way, and the last attempt is
 * never made before 24 h have passed since the first.
 */
export function nextAttemptDelaySeconds(
  attempt: number,
  sinceFirstAttemptSeconds: number,
  random: () => number,
  retryAfterSeconds: number | null = null,
): number | null {
  if (attempt < 1 || attempt >= MAX_ATTEMPTS) return null;
  if (attempt <= RETRY_DELAYS_SECONDS.length) return nextRetryDelaySeconds(attempt, random, retryAfterSeconds);
  const untilLast = LAST_ATTEMPT_AFTER_SECONDS - sinceFirstAttemptSeconds;
  return untilLast > 0 ? untilLast : null;
}

/** A 2xx is delivered; anything else, 3xx included, or no answer at all, is a failure. */
export function isDelivered(statusCode: number | null): boolean {
  return statusCode !== null && statusCode >= 200 && statusCode < 300;
}

/** `Retry-After` as seconds: delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - nowMs) / 1000));
}
