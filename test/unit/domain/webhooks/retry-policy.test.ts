import { describe, expect, it } from 'vitest';
import {
  isDelivered,
  JITTER,
  MAX_ATTEMPTS,
  nextRetryDelaySeconds,
  parseRetryAfter,
  RETRY_DELAYS_SECONDS,
} from '../../../../lambdas/domain/webhooks/retry-policy.js';

const low = () => 0;
const mid = () => 0.5;
const high = () => 0.999999;

describe('the webhook retry policy (docs/internals/webhooks.md, "Retries")', () => {
  it('waits +30 s, +2 min, +10 min, +30 min, +1 h, +3 h, +6 h, +12 h between the nine regular attempts (then one at 24 h)', () => {
    expect(RETRY_DELAYS_SECONDS).toEqual([30, 120, 600, 1800, 3600, 10_800, 21_600, 43_200]);
    expect(MAX_ATTEMPTS).toBe(10);
    expect(Array.from({ length: 8 }, (_, i) => nextRetryDelaySeconds(i + 1, mid))).toEqual([...RETRY_DELAYS_SECONDS]);
    const total = RETRY_DELAYS_SECONDS.reduce((a, b) => a + b, 0) / 3600;
    expect(total).toBeGreaterThan(22.5);
    expect(total).toBeLessThan(24);
  });

  it('jitters each wait by ±20 %', () => {
    expect(JITTER).toBe(0.2);
    RETRY_DELAYS_SECONDS.forEach((delay, i) => {
      expect(nextRetryDelaySeconds(i + 1, low)).toBe(Math.round(delay * 0.8));
      expect(nextRetryDelaySeconds(i + 1, high)).toBe(Math.round(delay * 1.2));
    });
  });

  it('has no regular gap after the ninth attempt, and refuses nonsense', () => {
    expect(nextRetryDelaySeconds(9, mid)).toBeNull();
    expect(nextRetryDelaySeconds(10, mid)).toBeNull();
    expect(nextRetryDelaySeconds(0, mid)).toBeNull();
  });

  it('honours Retry-After up to the following slot, and never retries sooner than scheduled', () => {
    expect(nextRetryDelaySeconds(1, mid, 90)).toBe(90);
    expect(nextRetryDelaySeconds(1, mid, 5000)).toBe(120);
    expect(nextRetryDelaySeconds(1, mid, 5)).toBe(30);
    expect(nextRetryDelaySeconds(8, mid, 999_999)).toBe(43_200);
  });

  it('counts only 2xx as delivered: 3xx, 4xx, 5xx and no answer are failures', () => {
    expect([200, 201, 204, 299].every(isDelivered)).toBe(true);
    expect([null, 199, 301, 302, 400, 410, 500, 503].some((status) => isDelivered(status))).toBe(false);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-11-24T00:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120);
    expect(parseRetryAfter('Tue, 24 Nov 2026 00:01:00 GMT', now)).toBe(60);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(undefined, now)).toBeNull();
  });
});
