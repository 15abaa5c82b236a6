import { presentBatch } from '../../../domain/batches/batch-view.js';
import { presentPage } from '../../../domain/kernel/page.js';
import { BatchListQuerySchema, BatchListSchema } from '../../../schemas/batches.js';
import { implement } from '../../implement.js';
import { defineRoute } from '../define.js';

export const route = defineRoute({
  module: import.meta.url,
  id: 'list-batches',
  method: 'GET',
  path: '/v1/batches',
  summary: "List the key's mode's batches, newest first",
  tag: 'Batches',
  auth: 'api_key',
  middleware: ['read-rate-limit', 'idempotency', 'strict-input'],
  query: BatchListQuerySchema,
  responses: { 200: { description: 'a page of batches', schema: BatchListSchema } },
  errors: [],
  access: { table: 'count', readObjects: ['outputs'] },
  timeoutSeconds: 10,
  maxBodyBytes: 0,
});

/** `GET /v1/batches`: newest first, the key's organisation and mode. */
export const handler = implement(route, async ({ services, principal, query }) => {
  const page = await services.batches.list({
    orgId: principal.orgId,
    livemode: principal.livemode,
    limit: query.limit,
    ...(query.starting_after ? { startingAfter: query.starting_after } : {}),
  });
  return {
    status: 200,
    body: await presentPage(page, (batch) => presentBatch(services, batch)),
  };
});
