import { type LineReader, sweepDueBatches } from '../batches/driver.js';
import { type DueJobsSweep, sweepDueJobs } from '../jobs/processing.js';
import { randomBase58 } from '../kernel/ids.js';
import type { Services } from '../ports/services.js';
import { redriveWebhooks } from '../webhooks/delivery.js';

// One run of the sweeper (docs/internals/operations.md, "The sweeper"), the same on AWS (the scheduled
// function) and locally (the sweeper loop): never two at once, anywhere. The run takes a lease
// item in the table with a conditional put; a run that finds it held does nothing.

/** The lease's name: one sweeper per table. */
export const SWEEPER_LEASE = 'sweeper';

export interface SweepOutcome extends DueJobsSweep {
  webhooks: { events: number; deliveries: number };
  /** batches taken over or completed (docs/internals/batches.md) */
  batches: number;
}

export interface SweepLimits {
  /**
   * How long the run may hold the lease: what is left of its function's time, so a run that dies
   * lets go of it when its function would have been stopped anyway, and a live one never loses it.
   */
  leaseMs: number;
  /** asked before each page of due jobs: false once the run must stop starting new work */
  goOn: () => boolean;
}

/**
 * Expires overdue queued jobs, re-drives jobs whose work message was lost, re-sends lost webhook
 * messages and takes over batches whose driver stopped, holding the sweeper's lease; null (and
 * nothing done) when another run holds it.
 */
export async function sweepOnce(
  services: Services,
  readLine: LineReader,
  limits: SweepLimits,
): Promise<SweepOutcome | null> {
  const token = randomBase58(16);
  const now = services.clock.nowMs();
  if (!(await services.leases.take(SWEEPER_LEASE, token, now + limits.leaseMs, now))) return null;
  try {
    const jobs = await sweepDueJobs(services, { goOn: limits.goOn });
    const webhooks = await redriveWebhooks(services);
    // batches whose driver stopped: taken over from their cursor
    const batches = await sweepDueBatches(services, readLine);
    return { ...jobs, webhooks, batches };
  } finally {
    await services.leases.release(SWEEPER_LEASE, token);
  }
}
