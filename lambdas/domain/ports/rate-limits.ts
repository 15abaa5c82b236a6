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
  /** the counter's current hits, read without writing (0 when absent) */
  read(counterKey: string): Promise<number>;
}

export interface RateLimitScope {
  orgId: string;
  livemode: boolean;
  plan: string;
  /** the counter drawn on: an inference route's slug, or the shared read bucket */
  bucket: string;
}

/** One fixed window of one (organisation, mode, bucket): the counter it draws on and its limit. */
export interface RateLimitWindow {
  counterKey: string;
  limit: number;
  /** epoch second at which the window resets */
  reset: number;
}

export interface RateLimitCheck {
  /** counts one request now and decides */
  check(clock: Clock, scope: RateLimitScope): Promise<RateLimitDecision>;
  /** true when this process already knows the window is spent (no write needed to refuse) */
  isExhausted(window: RateLimitWindow, clock: Clock): boolean;
  /** remembers the window as spent until its reset */
  markExhausted(window: RateLimitWindow): void;
}
