import { ApiError } from '../../domain/kernel/errors.js';
import type { JobRecord } from '../../domain/jobs/job.js';
import { findVisibleJob } from '../../domain/jobs/job-access.js';
import { presentJob } from '../../domain/jobs/job-view.js';
import { cancelJob as cancel } from '../../domain/jobs/processing.js';
import { implement } from '../implement.js';
import { cancelJob } from '../routes/jobs.js';

function notCancelableMessage(job: JobRecord): string {
  if (job.parent_job_id) return `Job ${job.id} is a stage of inspection ${job.parent_job_id}; a stage cannot be canceled on its own (cancel the inspection while it is queued).`;
  return `Job ${job.id} is ${job.status}; only a queued job can be canceled.`;
}

/** `POST /v1/jobs/{id}/cancel`: only a queued job can be canceled; canceling twice is fine. */
export const handler = implement(cancelJob, async ({ services, principal, params }) => {
  const job = await findVisibleJob(services, principal, params.id);
  const outcome = await cancel(services, job);
  if (outcome === 'not_cancelable') throw new ApiError('job_not_cancelable', 'id', notCancelableMessage(job));
  return { status: 200, body: await presentJob(services, outcome) };
});
