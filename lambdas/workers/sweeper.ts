import { containerFromEnvironment } from '../container.js';
import { sweepDueJobs } from '../domain/jobs/processing.js';

/** Scheduled: expires overdue queued jobs and re-drives jobs whose work message was lost. */
export async function handler(): Promise<{ expired: number; redriven: number }> {
  const services = containerFromEnvironment();
  const outcome = await sweepDueJobs(services);
  if (outcome.expired || outcome.redriven) services.log.info('sweep', outcome);
  return outcome;
}
