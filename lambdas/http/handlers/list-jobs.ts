import { presentJobPage } from '../../domain/jobs/job-view.js';
import { implement } from '../implement.js';
import { listJobs } from '../routes/jobs.js';

/** `GET /v1/jobs`: newest first, scoped to the key's organisation and mode. */
export const handler = implement(listJobs, async ({ services, principal, query }) => {
  const page = await presentJobPage(services, {
    orgId: principal.orgId,
    livemode: principal.livemode,
    limit: query.limit,
    ...(query.starting_after ? { startingAfter: query.starting_after } : {}),
    ...(query.status ? { status: query.status } : {}),
    ...(query.endpoint ? { endpoint: query.endpoint } : {}),
  });
  return { status: 200, body: page };
});
