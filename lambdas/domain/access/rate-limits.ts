import { epochSeconds, type Clock } from '../kernel/clock.js';
import type { RateLimitCheck, RateLimitCounter, RateLimitDecision, RateLimitScope } from '../ports/rate-limits.js';
import type { Services } from '../ports/services.js';
import { ApiError } from '../kernel/errors.js';

/** What a request is counted against: one bucket per inference endpoint, one for everything else. */
export type RateLimitBucket = string;
export const READ_BUCKET = 'reads';

export interface PlanLimits {
  /** calls per minute to each inference endpoint, per organisation and mode */
  inferencePerMinute: number;
  /** other `/v1` calls (jobs, catalogue, uploads) per minute, per organisation and mode */
  otherPerMinute: number;
}

export const PLAN_RATE_LIMITS: Record<string, PlanLimits> = {
  free: { inferencePerMinute: 60, otherPerMinute: 600 },
  pro: { inferencePerMinute: 600, otherPerMinute: 3000 },
  enterprise: { inferencePerMinute: 6000, otherPerMinute: 30000 },
};

export const WINDOW_SECONDS = 60;

export function limitFor(plan: string, bucket: RateLimitBucket): number {
  const limits = PLAN_RATE_LIMITS[plan] ?? PLAN_RATE_LIMITS.free!;
  return bucket === READ_BUCKET ? limits.otherPerMinute : limits.inferencePerMinute;
}

export function rateLimitHeaders(decision: RateLimitDecision, now: number): Record<string, string> {
  const headers: Record<string, string> = {
    'RateLimit-Limit': String(decision.limit),
    'RateLimit-Remaining': String(decision.remaining),
    'RateLimit-Reset': String(decision.reset),
  };
  if (!decision.allowed) headers['Retry-After'] = String(Math.max(1, decision.reset - now));
  return headers;
}

/**
 * Fixed 60 s windows per (organisation, mode, bucket). The window's start is part of the
 * counter's key, so correctness never waits on DynamoDB TTL (which only tidies up).
 * Once a window is known to be exhausted, this process refuses without another write, which
 * bounds the counter item's write rate to about the limit itself.
 */
export class RateLimiter implements RateLimitCheck {
  private readonly exhausted = new Map<string, number>();

  constructor(private readonly counter: RateLimitCounter) {}

  async check(clock: Clock, scope: RateLimitScope): Promise<RateLimitDecision> {
    const now = epochSeconds(clock);
    const windowStart = now - (now % WINDOW_SECONDS);
    const reset = windowStart + WINDOW_SECONDS;
    const limit = limitFor(scope.plan, scope.bucket);
    const key = `${scope.orgId}#${scope.livemode ? 'live' : 'test'}#${scope.bucket}#${windowStart}`;
    if ((this.exhausted.get(key) ?? 0) > now) return { limit, remaining: 0, reset, allowed: false };
    const count = await this.counter.hit(key, reset);
    const allowed = count <= limit;
    if (!allowed) this.remember(key, reset, now);
    return { limit, remaining: Math.max(0, limit - count), reset, allowed };
  }

  private remember(key: string, reset: number, now: number): void {
    for (const [k, until] of this.exhausted) if (until <= now) this.exhausted.delete(k);
    this.exhausted.set(key, reset);
  }
}

/** Polling one job faster than once a second is refused, whatever the plan. */
export async function checkPollingRate(services: Services, counter: RateLimitCounter, jobId: string): Promise<void> {
  const now = epochSeconds(services.clock);
  const count = await counter.hit(`poll#${jobId}#${now}`, now + 1);
  if (count > 1) {
    throw new ApiError('rate_limit_exceeded', 'id', 'Poll a job at most once per second, or pass wait=true, or use webhooks.', {
      'Retry-After': '1',
      'RateLimit-Limit': '1',
      'RateLimit-Remaining': '0',
      'RateLimit-Reset': String(now + 1),
    });
  }
}
