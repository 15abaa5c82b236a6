import { presentJobPage } from '../../../domain/jobs/job-view.js';
import { JobListQuerySchema, JobListSchema } from '../../../schemas/records.js';
import { implement } from '../../implement.js';
import { defineRoute } from '../define.js';

export const route = defineRoute({
  module: import.meta.url,
  id: 'list-jobs',
  method: 'GET',
  path: '/v1/jobs',
  summary: "List the key's jobs, newest first",
  tag: 'Jobs',
  auth: 'api_key',
  middleware: ['read-rate-limit', 'idempotency', 'strict-input'],
  query: JobListQuerySchema,
  responses: { 200: { description: 'a page of jobs', schema: JobListSchema } },
  errors: [],
  access: { table: 'count', readObjects: ['outputs'] },
  timeoutSeconds: 10,
  maxBodyBytes: 0,
});

/** `GET /v1/jobs`: newest first, scoped to the key's organisation and mode. */
export const handler = implement(route, async ({ services, principal, query }) => {
  const page = await presentJobPage(services, {
    orgId: principal.orgId,
    livemode: principal.livemode,
    limit: query.limit,
    ...(query.starting_after ? { startingAfter: query.starting_after } : {}),
    ...(query.status ? { status: query.status } : {}),
    ...(query.endpoint ? { endpoint: query.endpoint } : {}),
    ...(query.batch ? { batchId: query.batch } : {}),
  });
  return { status: 200, body: page };
});
