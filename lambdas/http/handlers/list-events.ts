import { implementJwt } from '../implement-jwt.js';
import { listEvents } from '../routes/webhooks.js';

export const handler = implementJwt(listEvents, async ({ services, member, query }) => {
  const page = await services.webhooks.listEvents({
    orgId: member.orgId,
    limit: query.limit,
    ...(query.starting_after ? { startingAfter: query.starting_after } : {}),
    ...(query.type ? { type: query.type } : {}),
    ...(query.job_id ? { jobId: query.job_id } : {}),
    ...(query.created_gte !== undefined ? { createdGte: query.created_gte } : {}),
  });
  return { status: 200, body: { object: 'list' as const, data: page.items, has_more: page.hasMore } };
});
