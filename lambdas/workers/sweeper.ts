import { containerFromEnvironment, refreshRuntimeSecrets } from '../composition/container.js';
import { sweepDueBatches } from '../domain/batches/driver.js';
import { sweepDueJobs } from '../domain/jobs/processing.js';
import { redriveWebhooks } from '../domain/webhooks/delivery.js';
import { batchLineReader } from '../http/inference/batch-line.js';

/** Scheduled: expires overdue queued jobs, re-drives jobs whose work message was lost, and re-sends lost webhook messages. */
export async function handler(): Promise<{
  expired: number;
  redriven: number;
  webhooks: { events: number; deliveries: number };
  batches: number;
}> {
  const services = containerFromEnvironment();
  // live jobs are submitted signed with the callback secret, read at run time
  await refreshRuntimeSecrets(services);
  const jobs = await sweepDueJobs(services);
  const webhooks = await redriveWebhooks(services);
  // batches whose driver stopped: taken over from their cursor (docs/batches.md)
  const batches = await sweepDueBatches(services, batchLineReader(services));
  const outcome = { ...jobs, webhooks, batches };
  if (jobs.expired || jobs.redriven || webhooks.events || webhooks.deliveries || batches)
    services.log.info('sweep', outcome);
  return outcome;
}
