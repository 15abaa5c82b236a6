import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  JITTER,
  LAST_ATTEMPT_AFTER_SECONDS,
  MAX_ATTEMPTS,
  nextAttemptDelaySeconds,
  RETRY_DELAYS_SECONDS,
} from '../../../../lambdas/domain/webhooks/retry-policy.js';

// The retry schedule covers the whole 24 h window (docs/internals/webhooks.md, "Retries"): whatever the
// jitter, the receiver's Retry-After or how late each attempt runs, the last attempt of a delivery
// that keeps failing is never made before 24 h have passed since the first.

interface Attempt {
  /** the policy's random draw after this attempt fails */
  draw: number;
  /** what the receiver answered in Retry-After, if anything */
  retryAfter: number | null;
  /** how much later than due the attempt actually ran (a slow queue, a lost message re-sent) */
  lateBy: number;
}

/** The seconds (since the first attempt) at which each attempt of an always-failing delivery runs. */
function attemptTimes(attempts: readonly Attempt[]): number[] {
  const times = [0];
  for (let n = 1; ; n += 1) {
    const made = times[n - 1]!;
    const step = attempts[(n - 1) % attempts.length]!;
    const delay = nextAttemptDelaySeconds(n, made, () => step.draw, step.retryAfter);
    if (delay === null) return times;
    expect(delay).toBeGreaterThan(0);
    times.push(made + delay + attempts[n % attempts.length]!.lateBy);
  }
}

const draw = fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true });
const attempt = fc.record({
  draw: fc.oneof(draw, fc.constantFrom(0, 0.5, 0.999_999_999)),
  retryAfter: fc.oneof(fc.constant(null), fc.integer({ min: 0, max: 200_000 })),
  lateBy: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 3600 })),
});

describe('the last webhook attempt is never before 24 h', () => {
  it('for any jitter, Retry-After and lateness (10,000 random schedules)', () => {
    fc.assert(
      fc.property(fc.array(attempt, { minLength: MAX_ATTEMPTS, maxLength: MAX_ATTEMPTS }), (attempts) => {
        const times = attemptTimes(attempts);
        expect(times.at(-1)!).toBeGreaterThanOrEqual(LAST_ATTEMPT_AFTER_SECONDS);
        expect(times.length).toBeLessThanOrEqual(MAX_ATTEMPTS);
        // nothing but the last attempt waits for the 24 h mark: the regular ones keep their slots
        expect(times.length).toBeGreaterThanOrEqual(MAX_ATTEMPTS - 1);
      }),
      { numRuns: 10_000 },
    );
  });

  it.each([
    ['every gap 20 % short', 0],
    ['every gap on schedule', 0.5],
    ['every gap 20 % long', 0.999_999_999],
  ])('at the extremes: %s', (_, value) => {
    const times = attemptTimes([{ draw: value, retryAfter: null, lateBy: 0 }]);
    const regular = RETRY_DELAYS_SECONDS.reduce((sum, gap) => sum + gap, 0);
    const ninth = times[RETRY_DELAYS_SECONDS.length]!;
    expect(ninth).toBeCloseTo(regular * (1 - JITTER + 2 * JITTER * value), -1);
    if (ninth < LAST_ATTEMPT_AFTER_SECONDS) {
      // a tenth attempt, exactly 24 h after the first
      expect(times).toHaveLength(MAX_ATTEMPTS);
      expect(times.at(-1)).toBe(LAST_ATTEMPT_AFTER_SECONDS);
    } else {
      // the jitter carried the ninth past 24 h: it was the last
      expect(times).toHaveLength(MAX_ATTEMPTS - 1);
    }
    expect(times.at(-1)!).toBeGreaterThanOrEqual(LAST_ATTEMPT_AFTER_SECONDS);
  });

  it('the regular gaps keep their ±20 % and the 24 h attempt is the tenth', () => {
    expect(MAX_ATTEMPTS).toBe(10);
    const ninthAt = 22 * 3600;
    expect(nextAttemptDelaySeconds(9, ninthAt, () => 0.5)).toBe(LAST_ATTEMPT_AFTER_SECONDS - ninthAt);
    expect(nextAttemptDelaySeconds(9, LAST_ATTEMPT_AFTER_SECONDS, () => 0.5)).toBeNull();
    expect(nextAttemptDelaySeconds(10, 0, () => 0.5)).toBeNull();
    expect(nextAttemptDelaySeconds(0, 0, () => 0.5)).toBeNull();
    RETRY_DELAYS_SECONDS.forEach((gap, i) => {
      expect(nextAttemptDelaySeconds(i + 1, 0, () => 0)).toBe(Math.round(gap * (1 - JITTER)));
      expect(nextAttemptDelaySeconds(i + 1, 0, () => 0.999_999_999)).toBe(Math.round(gap * (1 + JITTER)));
    });
  });
});
