import type { Clock } from '../kernel/clock.js';

export interface RateLimitDecision {
  limit: number;
  remaining: number;
  /** epoch second at which the window resets */
  reset: number;
  allowed: boolean;
}

export interface RateLimitCounter {
  /** adds one hit to the counter and returns the new count */
  hit(counterKey: string, expiresAt: number): Promise<number>;
}

export interface RateLimitScope {
  orgId: string;
  livemode: boolean;
  plan: string;
  /** the counter drawn on: an inference route's slug, or the shared read bucket */
  bucket: string;
}

export interface RateLimitCheck {
  check(clock: Clock, scope: RateLimitScope): Promise<RateLimitDecision>;
}
