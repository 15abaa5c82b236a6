import { presentJobPage } from '../../../domain/jobs/job-view.js';
import { DashboardJobListQuerySchema } from '../../../schemas/management.js';
import { JobListSchema } from '../../../schemas/records.js';
import { implementJwt } from '../../implement-jwt.js';
import { managementRoute } from '../define.js';

export const route = managementRoute({
  module: import.meta.url,
  id: 'list-organization-jobs',
  method: 'GET',
  path: '/mgmt/v1/jobs',
  minimumRole: 'member',
  summary: "The organisation's jobs across every key and both modes, newest first",
  query: DashboardJobListQuerySchema,
  responses: { 200: { description: 'a page of jobs', schema: JobListSchema } },
  errors: [],
  access: { table: 'read', readObjects: ['outputs'] },
});

/** `GET /mgmt/v1/jobs`: the page shape of GET /v1/jobs, across every key of the organisation and both modes. */
export const handler = implementJwt(route, async ({ services, member, query }) => {
  const page = await presentJobPage(services, {
    orgId: member.orgId,
    limit: query.limit,
    ...(query.livemode === undefined ? {} : { livemode: query.livemode }),
    ...(query.starting_after ? { startingAfter: query.starting_after } : {}),
    ...(query.status ? { status: query.status } : {}),
    ...(query.endpoint ? { endpoint: query.endpoint } : {}),
    ...(query.top_level ? { topLevelOnly: true } : {}),
    ...(query.batch ? { batchId: query.batch } : {}),
  });
  return { status: 200, body: page };
});
