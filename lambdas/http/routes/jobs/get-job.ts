import { checkPollingRate } from '../../../domain/access/rate-limits.js';
import { findVisibleJob, presentJob } from '../../../domain/jobs/job-view.js';
import { JobIdParams, JobSchema } from '../../../schemas/records.js';
import { implement } from '../../implement.js';
import { defineRoute } from '../define.js';

export const route = defineRoute({
  module: import.meta.url,
  id: 'get-job',
  method: 'GET',
  path: '/v1/jobs/{id}',
  summary: 'Retrieve a job (at most once a second per job)',
  tag: 'Jobs',
  auth: 'api_key',
  middleware: ['read-rate-limit', 'idempotency', 'strict-input'],
  params: JobIdParams,
  notFound: 'job_not_found',
  responses: { 200: { description: 'the job', schema: JobSchema } },
  // 403: a job of another organisation (domain/jobs/job-access.ts)
  errors: ['scope_not_granted'],
  // authenticate (plus the polling counter), read the job, sign result URLs
  access: { table: 'count', readObjects: ['outputs'] },
  timeoutSeconds: 10,
  maxBodyBytes: 0,
});

/** `GET /v1/jobs/{id}` */
export const handler = implement(route, async ({ services, principal, params }) => {
  const job = await findVisibleJob(services, principal, params.id);
  await checkPollingRate(services, services.rateLimitCounter, job.id);
  return { status: 200, body: await presentJob(services, job) };
});
