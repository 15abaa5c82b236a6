import { presentBatch } from '../../../domain/batches/batch-view.js';
import { listOrganizationBatches as listBatches } from '../../../domain/batches/batches.js';
import { presentPage } from '../../../domain/kernel/page.js';
import { BatchListSchema, DashboardBatchListQuerySchema } from '../../../schemas/batches.js';
import { implementJwt } from '../../implement-jwt.js';
import { managementRoute } from '../define.js';

export const route = managementRoute({
  module: import.meta.url,
  id: 'list-organization-batches',
  method: 'GET',
  path: '/mgmt/v1/batches',
  minimumRole: 'member',
  summary: "The organisation's batches across every key and both modes, newest first",
  query: DashboardBatchListQuerySchema,
  responses: { 200: { description: 'a page of batches', schema: BatchListSchema } },
  errors: [],
  access: { table: 'read', readObjects: ['outputs'] },
});

/** `GET /mgmt/v1/batches`: every key's batches, one mode or both, newest first. */
export const handler = implementJwt(route, async ({ services, member, query }) => {
  const page = await listBatches(services, {
    orgId: member.orgId,
    limit: query.limit,
    ...(query.livemode === undefined ? {} : { livemode: query.livemode }),
    ...(query.starting_after ? { startingAfter: query.starting_after } : {}),
  });
  return {
    status: 200,
    body: await presentPage(page, (batch) => presentBatch(services, batch)),
  };
});
