import { enforceRetention, type RetentionOutcome } from '../lambdas/domain/erasure/retention.js';
import type { Services } from '../lambdas/domain/ports/services.js';
import { type SweepOutcome, sweepOnce } from '../lambdas/domain/sweeper/sweep.js';
import { batchLineReader } from '../lambdas/http/inference/batch-line.js';

/**
 * A local run's lease and working time: shorter than the function's 60 s, so a runtime killed in
 * the middle of a run sweeps again within half a minute of its restart (docs/internals/operations.md).
 */
const LOCAL_SWEEP_LEASE_MS = 30_000;
const LOCAL_SWEEP_WORK_MS = 20_000;

export interface SweeperLoop {
  /** runs one sweep now (tests call this instead of waiting for the timer); null when another run holds the lease */
  sweep(): Promise<SweepOutcome | null>;
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
  // one run at a time in this process; the lease keeps out another process on the same table
  const sweep = single(() => {
    const stopAt = Date.now() + LOCAL_SWEEP_WORK_MS;
    return sweepOnce(services, batchLineReader(services), {
      leaseMs: LOCAL_SWEEP_LEASE_MS,
      goOn: () => Date.now() < stopAt,
    });
  });
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
