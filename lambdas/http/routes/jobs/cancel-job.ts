import type { JobRecord } from '../../../domain/jobs/job.js';
import { findVisibleJob, presentJob } from '../../../domain/jobs/job-view.js';
import { cancelJob as cancel } from '../../../domain/jobs/processing.js';
import { ApiError } from '../../../domain/kernel/errors.js';
import { JobIdParams, JobSchema } from '../../../schemas/records.js';
import { implement } from '../../implement.js';
import { defineRoute } from '../define.js';
import { CANCEL_ACCESS } from './data-access.js';

function notCancelableMessage(job: JobRecord): string {
  if (job.parent_job_id)
    return `Job ${job.id} is a stage of inspection ${job.parent_job_id}; a stage cannot be canceled on its own (cancel the inspection while it is queued).`;
  return `Job ${job.id} is ${job.status}; only a queued job can be canceled.`;
}

export const route = defineRoute({
  module: import.meta.url,
  id: 'cancel-job',
  method: 'POST',
  path: '/v1/jobs/{id}/cancel',
  summary: 'Cancel a queued job; its whole reservation is released',
  tag: 'Jobs',
  auth: 'api_key',
  middleware: ['read-rate-limit', 'idempotency', 'strict-input'],
  params: JobIdParams,
  notFound: 'job_not_found',
  responses: { 200: { description: 'the canceled job', schema: JobSchema } },
  errors: ['job_not_cancelable', 'scope_not_granted'],
  access: CANCEL_ACCESS,
  timeoutSeconds: 10,
  maxBodyBytes: 0,
});

/** `POST /v1/jobs/{id}/cancel`: only a queued job can be canceled; canceling twice is fine. */
export const handler = implement(route, async ({ services, principal, params }) => {
  const job = await findVisibleJob(services, principal, params.id);
  const outcome = await cancel(services, job);
  if (outcome === 'not_cancelable') throw new ApiError('job_not_cancelable', 'id', notCancelableMessage(job));
  return { status: 200, body: await presentJob(services, outcome) };
});
