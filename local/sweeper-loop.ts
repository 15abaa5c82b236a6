import type { Services } from '../lambdas/domain/ports/services.js';
import { sweepDueJobs } from '../lambdas/domain/jobs/processing.js';
import { redriveWebhooks } from '../lambdas/domain/webhooks/delivery.js';

export interface SweepOutcome {
  expired: number;
  redriven: number;
  webhooks: { events: number; deliveries: number };
}

export interface SweeperLoop {
  /** runs one sweep now (tests call this instead of waiting for the timer) */
  sweep(): Promise<SweepOutcome>;
  stop(): Promise<void>;
}

/** Plays the part of the scheduled sweeper Lambda, every `intervalMs`. */
export function startSweeperLoop(services: Services, intervalMs: number): SweeperLoop {
  let current: Promise<SweepOutcome> | null = null;
  const sweep = () => {
    current ??= sweepDueJobs(services)
      .then(async (jobs) => ({ ...jobs, webhooks: await redriveWebhooks(services) }))
      .finally(() => {
        current = null;
      });
    return current;
  };
  const timer = intervalMs > 0 ? setInterval(() => void sweep().catch((error) => services.log.warn('sweep failed', { error: String(error) })), intervalMs) : null;
  return {
    sweep,
    stop: async () => {
      if (timer) clearInterval(timer);
      await current?.catch(() => undefined);
    },
  };
}
