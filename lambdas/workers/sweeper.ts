import { containerFromEnvironment, refreshRuntimeSecrets } from '../composition/container.js';
import { sweepDueJobs } from '../domain/jobs/processing.js';
import { redriveWebhooks } from '../domain/webhooks/delivery.js';

/** Scheduled: expires overdue queued jobs, re-drives jobs whose work message was lost, and re-sends lost webhook messages. */
export async function handler(): Promise<{ expired: number; redriven: number; webhooks: { events: number; deliveries: number } }> {
  const services = containerFromEnvironment();
  // live jobs are submitted signed with the callback secret, read at run time
  await refreshRuntimeSecrets(services);
  const jobs = await sweepDueJobs(services);
  const webhooks = await redriveWebhooks(services);
  const outcome = { ...jobs, webhooks };
  if (jobs.expired || jobs.redriven || webhooks.events || webhooks.deliveries) services.log.info('sweep', outcome);
  return outcome;
}
