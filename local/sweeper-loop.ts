import { sweepDueBatches } from '../lambdas/domain/batches/driver.js';
import { enforceRetention, type RetentionOutcome } from '../lambdas/domain/erasure/retention.js';
import { sweepDueJobs } from '../lambdas/domain/jobs/processing.js';
import type { Services } from '../lambdas/domain/ports/services.js';
import { redriveWebhooks } from '../lambdas/domain/webhooks/delivery.js';
import { batchLineReader } from '../lambdas/http/inference/batch-line.js';

export interface SweepOutcome {
  expired: number;
  redriven: number;
  webhooks: { events: number; deliveries: number };
  /** batches taken over or completed (docs/batches.md) */
  batches: number;
}

export interface SweeperLoop {
  /** runs one sweep now (tests call this instead of waiting for the timer) */
  sweep(): Promise<SweepOutcome>;
  /** runs one retention pass now (tests move the clock, then call this) */
  enforceRetention(): Promise<RetentionOutcome>;
  stop(): Promise<void>;
}

/** One run at a time of `work`; a call while one runs shares it. */
function single<T>(work: () => Promise<T>): { run: () => Promise<T>; settled: () => Promise<void> } {
  let current: Promise<T> | null = null;
  return {
    run: () =>
      (current ??= work().finally(() => {
        current = null;
      })),
    settled: async () => {
      await current?.catch(() => undefined);
    },
  };
}

/**
 * Plays the scheduled sweeper Lambda every `intervalMs`, and the retention worker every
 * `retentionIntervalMs` (0 turns either timer off).
 */
export function startSweeperLoop(
  services: Services,
  intervalMs: number,
  retentionIntervalMs = intervalMs > 0 ? 60_000 : 0,
): SweeperLoop {
  const sweep = single(async () => ({
    ...(await sweepDueJobs(services)),
    webhooks: await redriveWebhooks(services),
    batches: await sweepDueBatches(services, batchLineReader(services)),
  }));
  const retention = single(() => enforceRetention(services));
  const every = (ms: number, run: () => Promise<unknown>, what: string) =>
    ms > 0
      ? setInterval(
          () => void run().catch((error) => services.log.warn(`${what} failed`, { error: String(error) })),
          ms,
        )
      : null;
  const timers = [every(intervalMs, sweep.run, 'sweep'), every(retentionIntervalMs, retention.run, 'retention pass')];
  return {
    sweep: sweep.run,
    enforceRetention: retention.run,
    stop: async () => {
      for (const timer of timers) if (timer) clearInterval(timer);
      await Promise.all([sweep.settled(), retention.settled()]);
    },
  };
}
