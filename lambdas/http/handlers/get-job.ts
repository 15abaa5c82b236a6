import { findVisibleJob } from '../../domain/jobs/job-access.js';
import { presentJob } from '../../domain/jobs/job-view.js';
import { checkPollingRate } from '../../domain/access/rate-limits.js';
import { implement } from '../implement.js';
import { getJob } from '../routes/jobs.js';

/** `GET /v1/jobs/{id}` */
export const handler = implement(getJob, async ({ services, principal, params }) => {
  const job = await findVisibleJob(services, principal, params.id);
  await checkPollingRate(services, services.rateLimitCounter, job.id);
  return { status: 200, body: await presentJob(services, job) };
});
