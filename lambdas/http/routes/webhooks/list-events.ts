import { listOf } from '../../../domain/kernel/page.js';
import { EventListQuerySchema, EventListSchema } from '../../../schemas/webhooks.js';
import { implementJwt } from '../../implement-jwt.js';
import { managementRoute } from '../define.js';

export const route = managementRoute({
  module: import.meta.url,
  id: 'list-events',
  method: 'GET',
  path: '/mgmt/v1/events',
  minimumRole: 'admin',
  summary: 'Events of the organisation, newest first (reconcile after an outage); filters type, job_id, created_gte',
  query: EventListQuerySchema,
  responses: { 200: { description: 'a page of events', schema: EventListSchema } },
  errors: [],
  access: { table: 'read' },
});

export const handler = implementJwt(route, async ({ services, member, query }) => {
  const page = await services.webhooks.listEvents({
    orgId: member.orgId,
    limit: query.limit,
    ...(query.starting_after ? { startingAfter: query.starting_after } : {}),
    ...(query.type ? { type: query.type } : {}),
    ...(query.job_id ? { jobId: query.job_id } : {}),
    ...(query.created_gte !== undefined ? { createdGte: query.created_gte } : {}),
  });
  return { status: 200, body: listOf(page.items, page.hasMore) };
});
