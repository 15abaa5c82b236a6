/**
 * docs/webhooks.md, "Retries": nine attempts, at +0, then +30 s, +2 min, +10 min, +30 min, +1 h,
 * +3 h, +6 h and +12 h after the previous one (≈ 22.7 h in all), each delay ±20 % jitter.
 */
export const RETRY_DELAYS_SECONDS = [30, 120, 600, 1800, 3600, 10_800, 21_600, 43_200] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1;
export const JITTER = 0.2;

/**
 * Seconds to wait after failed attempt number `attempt` (1-based), or null when it was the last.
 * `random` is uniform in [0, 1). A `Retry-After` is honoured up to the slot after the next one:
 * the wait is at least what the receiver asked, never longer than the following slot's delay.
 */
export function nextRetryDelaySeconds(attempt: number, random: () => number, retryAfterSeconds: number | null = null): number | null {
  if (attempt < 1 || attempt >= MAX_ATTEMPTS) return null;
  const scheduled = RETRY_DELAYS_SECONDS[attempt - 1]!;
  const jittered = Math.round(scheduled * (1 - JITTER + 2 * JITTER * random()));
  if (retryAfterSeconds === null || retryAfterSeconds <= jittered) return jittered;
  const ceiling = RETRY_DELAYS_SECONDS[attempt] ?? scheduled;
  return Math.min(retryAfterSeconds, Math.max(ceiling, jittered));
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
