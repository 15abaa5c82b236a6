import { type Clock, epochSeconds } from '../kernel/clock.js';
import { ApiError, type RateWindow } from '../kernel/errors.js';
import { ExpiringMap } from '../kernel/expiring-map.js';
import { modeOf } from '../kernel/mode.js';
import type {
  RateLimitCheck,
  RateLimitCounter,
  RateLimitDecision,
  RateLimitScope,
  RateLimitWindow,
} from '../ports/access.js';
import type { Services } from '../ports/services.js';

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

/**
 * Quotes count in a window of their own per API key, as many a minute as the plan's other calls: a
 * client may quote before every call without spending the call's window (docs/internals/quotes.md).
 */
export function quoteBucket(apiKeyId: string): RateLimitBucket {
  return `quotes of ${apiKeyId}`;
}

export function limitFor(plan: string, bucket: RateLimitBucket): number {
  const limits = PLAN_RATE_LIMITS[plan] ?? PLAN_RATE_LIMITS.free!;
  return bucket === READ_BUCKET || bucket.startsWith(quoteBucket(''))
    ? limits.otherPerMinute
    : limits.inferencePerMinute;
}

/** The window a decision was made in, as the caller is told it. */
export function rateWindowOf(decision: RateLimitDecision, now: number, length = WINDOW_SECONDS): RateWindow {
  return {
    limit: decision.limit,
    remaining: decision.remaining,
    reset: decision.reset,
    resetsIn: Math.max(0, decision.reset - now),
    length,
  };
}

/** The fixed 60 s window the clock is in now: its start (part of every counter's key) and the epoch second it resets. */
export function currentWindow(clock: Clock): { start: number; reset: number } {
  const now = epochSeconds(clock);
  const start = now - (now % WINDOW_SECONDS);
  return { start, reset: start + WINDOW_SECONDS };
}

/** The fixed window `scope` draws on now: its start is part of the counter's key. */
export function windowOf(clock: Clock, scope: RateLimitScope): RateLimitWindow {
  const { start, reset } = currentWindow(clock);
  return {
    counterKey: `${scope.orgId}#${modeOf(scope.livemode)}#${scope.bucket}#${start}`,
    limit: limitFor(scope.plan, scope.bucket),
    reset,
  };
}

export function refusedDecision(window: RateLimitWindow): RateLimitDecision {
  return { limit: window.limit, remaining: 0, reset: window.reset, allowed: false };
}

/** How long a window's count read by this process serves an admission's `RateLimit-Remaining` before it is read again. */
export const COUNT_READ_INTERVAL_MS = 1000;

/**
 * Fixed 60 s windows per (organisation, mode, bucket). The window's start is part of the
 * counter's key, so correctness never waits on DynamoDB TTL (which only tidies up).
 * Once a window is known to be exhausted, this process refuses without another write, which
 * bounds the counter item's write rate to about the limit itself.
 */
export class RateLimiter implements RateLimitCheck {
  /** counter keys of windows this process saw spent, until their reset */
  private readonly exhausted = new ExpiringMap<string, true>();
  /** each window's hits as this process last learnt them (a read or a counted hit), plus its admissions since, and when it read */
  private readonly known = new ExpiringMap<string, { hits: number; readAtMs: number }>();

  constructor(private readonly counter: RateLimitCounter) {}

  async check(clock: Clock, scope: RateLimitScope): Promise<RateLimitDecision> {
    const window = windowOf(clock, scope);
    if (this.isExhausted(window, clock)) return refusedDecision(window);
    const count = await this.counter.hit(window.counterKey, window.reset);
    this.known.set(window.counterKey, { hits: count, readAtMs: clock.nowMs() }, window.reset * 1000);
    const allowed = count <= window.limit;
    if (!allowed) this.markExhausted(window);
    return { limit: window.limit, remaining: Math.max(0, window.limit - count), reset: window.reset, allowed };
  }

  wantsCount(window: RateLimitWindow, clock: Clock): boolean {
    const known = this.known.get(window.counterKey, clock.nowMs());
    return !known || clock.nowMs() - known.readAtMs >= COUNT_READ_INTERVAL_MS;
  }

  /**
   * The admission's hit was counted by its transaction, which answers no count. `remaining` is
   * the window's hits as last read (a read beside the transaction may or may not include this hit:
   * it is counted once more, erring low) plus this process's admissions since.
   */
  admitted(window: RateLimitWindow, clock: Clock, observed: number | null): RateLimitDecision {
    const nowMs = clock.nowMs();
    const known = this.known.get(window.counterKey, nowMs);
    const hits = Math.max((known?.hits ?? 0) + 1, observed === null ? 0 : observed + 1);
    this.known.set(
      window.counterKey,
      { hits, readAtMs: observed === null ? (known?.readAtMs ?? 0) : nowMs },
      window.reset * 1000,
    );
    return { limit: window.limit, remaining: Math.max(0, window.limit - hits), reset: window.reset, allowed: true };
  }

  isExhausted(window: RateLimitWindow, clock: Clock): boolean {
    return this.exhausted.get(window.counterKey, clock.nowMs()) === true;
  }

  markExhausted(window: RateLimitWindow): void {
    this.exhausted.set(window.counterKey, true, window.reset * 1000);
  }
}

/** The 429 a spent window answers: retry once it resets. */
export function rateLimitError(
  decision: RateLimitDecision,
  bucket: RateLimitBucket,
  plan: string,
  now: number,
  length = WINDOW_SECONDS,
): ApiError {
  return new ApiError(
    'rate_limit_exceeded',
    null,
    `Rate limit of ${decision.limit} calls a minute for ${bucket} exceeded on the ${plan} plan; poll less often or receive results by webhook.`,
    refusalAdvice(decision, now, length),
  );
}

/** A spent window's advice: retry when it resets, at least a second from now. */
export function refusalAdvice(decision: RateLimitDecision, now: number, length = WINDOW_SECONDS) {
  return { afterSeconds: Math.max(1, decision.reset - now), window: rateWindowOf(decision, now, length) };
}

/** Polling one job faster than once a second is refused, whatever the plan. */
export async function checkPollingRate(services: Services, counter: RateLimitCounter, jobId: string): Promise<void> {
  const now = epochSeconds(services.clock);
  const count = await counter.hit(`poll#${jobId}#${now}`, now + 1);
  if (count > 1) {
    throw new ApiError(
      'rate_limit_exceeded',
      'id',
      'Poll a job at most once per second, or pass wait=true, or use webhooks.',
      refusalAdvice({ limit: 1, remaining: 0, reset: now + 1, allowed: false }, now, 1),
    );
  }
}
