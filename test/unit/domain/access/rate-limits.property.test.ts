import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { limitFor, RateLimiter, WINDOW_SECONDS } from '../../../../lambdas/domain/access/rate-limits.js';
import { AdjustableClock } from '../../../../lambdas/domain/kernel/clock.js';
import type { RateLimitCounter } from '../../../../lambdas/domain/ports/access.js';

class MemoryCounter implements RateLimitCounter {
  readonly counts = new Map<string, number>();
  writes = 0;
  async hit(key: string): Promise<number> {
    this.writes += 1;
    const next = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, next);
    return next;
  }
  async read(key: string): Promise<number> {
    return this.counts.get(key) ?? 0;
  }
}

const step = fc.record({ advanceMs: fc.integer({ min: 0, max: 45_000 }), hits: fc.integer({ min: 0, max: 90 }) });

describe('rate limiter properties', () => {
  it('never allows more than the limit in a window, reports consistent headers, and opens again in the next window', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('free', 'pro'),
        fc.array(step, { minLength: 1, maxLength: 12 }),
        async (plan, steps) => {
          const clock = new AdjustableClock();
          const counter = new MemoryCounter();
          const limiter = new RateLimiter(counter);
          const allowedPerWindow = new Map<string, number>();
          for (const { advanceMs, hits } of steps) {
            clock.advance(advanceMs);
            const limit = limitFor(plan, 'plate.read');
            for (let i = 0; i < hits; i += 1) {
              const now = Math.floor(clock.nowMs() / 1000);
              const decision = await limiter.check(clock, {
                orgId: 'org_1',
                livemode: false,
                plan,
                bucket: 'plate.read',
              });
              expect(decision.limit).toBe(limit);
              expect(decision.reset % WINDOW_SECONDS).toBe(0);
              expect(decision.reset).toBeGreaterThan(now);
              expect(decision.reset - now).toBeLessThanOrEqual(WINDOW_SECONDS);
              expect(decision.remaining).toBeGreaterThanOrEqual(0);
              const window = String(decision.reset);
              if (decision.allowed) allowedPerWindow.set(window, (allowedPerWindow.get(window) ?? 0) + 1);
              expect(allowedPerWindow.get(window) ?? 0).toBeLessThanOrEqual(limit);
              if (decision.allowed) expect(decision.remaining).toBe(limit - (allowedPerWindow.get(window) ?? 0));
            }
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('stops writing to the counter once a window is exhausted', async () => {
    const clock = new AdjustableClock();
    const counter = new MemoryCounter();
    const limiter = new RateLimiter(counter);
    clock.advance(60_000 - (clock.nowMs() % 60_000) + 10);
    const limit = limitFor('free', 'vin.read');
    for (let i = 0; i < limit * 3; i += 1)
      await limiter.check(clock, { orgId: 'org_1', livemode: true, plan: 'free', bucket: 'vin.read' });
    expect(counter.writes).toBe(limit + 1);
  });
});
