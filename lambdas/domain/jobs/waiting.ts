import type { Services } from '../ports/services.js';
import { isTerminal, type JobRecord } from './job.js';

/**
 * Holds until the job settles or the ceiling passes, reading the job record with strongly
 * consistent reads every 50 ms, then every 100 ms: a settled job is answered within 100 ms (at
 * most ten reads a second, about 280 for a 28 s wait). Returns the latest record either way.
 */
export async function waitForSettlement(
  services: Services,
  jobId: string,
  ceilingMs: number,
): Promise<JobRecord | null> {
  const deadline = Date.now() + ceilingMs;
  let interval = 50;
  let job = await services.jobs.get(jobId);
  while (job && !isTerminal(job.status) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, Math.min(interval, Math.max(deadline - Date.now(), 0))));
    interval = Math.min(interval * 1.5, 100);
    job = await services.jobs.get(jobId);
  }
  return job;
}
