import { CATALOGUE } from '../catalogue/catalogue.js';
import { timeOfId } from '../kernel/ids.js';
import type { WorkLane } from '../ports/jobs.js';
import type { Services } from '../ports/services.js';
import type { JobRecord } from './job.js';

/**
 * Which work queue carries a job. Endpoints that accept `wait=true` have a lane of their own, so
 * a caller holding a connection never queues behind slow work (videos, renders, bundles, or a
 * fast endpoint steered `slow`).
 */
export function laneOf(job: Pick<JobRecord, 'endpoint' | 'test_scenario'>): WorkLane {
  return CATALOGUE[job.endpoint].acceptsWait && job.test_scenario !== 'slow' ? 'fast' : 'standard';
}

/**
 * Whole seconds until a job steered `slow` may start (it stays `queued` that long); 0 when due.
 * Counted from the instant it was admitted (its id's millisecond), not its `created` second, and
 * rounded up: it stays queued at least its delay, as when a queue's delay held it.
 */
export function secondsUntilDue(job: Pick<JobRecord, 'id' | 'simulated_delay_seconds'>, nowMs: number): number {
  const dueMs = timeOfId(job.id) + (job.simulated_delay_seconds ?? 0) * 1000;
  return Math.max(0, Math.ceil((dueMs - nowMs) / 1000));
}

/** Sends the job's id to its lane, delayed until it is due. */
export async function enqueueJob(
  services: Services,
  job: Pick<JobRecord, 'id' | 'endpoint' | 'test_scenario'>,
  delaySeconds = 0,
): Promise<void> {
  await services.workQueues[laneOf(job)].send({ job_id: job.id }, delaySeconds);
}
