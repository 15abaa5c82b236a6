import { CATALOGUE } from '../catalogue/catalogue.js';
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

/** Seconds until a job steered `slow` may start (it stays `queued` that long); 0 when due. */
export function secondsUntilDue(
  job: Pick<JobRecord, 'created' | 'simulated_delay_seconds'>,
  nowSeconds: number,
): number {
  return Math.max(0, job.created + (job.simulated_delay_seconds ?? 0) - nowSeconds);
}

/** Sends the job's id to its lane, delayed until it is due. */
export async function enqueueJob(
  services: Services,
  job: Pick<JobRecord, 'id' | 'endpoint' | 'test_scenario'>,
  delaySeconds = 0,
): Promise<void> {
  await services.workQueues[laneOf(job)].send({ job_id: job.id }, delaySeconds);
}
