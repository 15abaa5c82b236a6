import { presentBatch } from '../../../domain/batches/batch-view.js';
import { findVisibleBatch } from '../../../domain/batches/batches.js';
import { BatchIdParams, BatchSchema } from '../../../schemas/batches.js';
import { implement } from '../../implement.js';
import { defineRoute } from '../define.js';

export const route = defineRoute({
  module: import.meta.url,
  id: 'get-batch',
  method: 'GET',
  path: '/v1/batches/{id}',
  summary: 'Retrieve a batch: its status, counts, credits and output file',
  tag: 'Batches',
  auth: 'api_key',
  middleware: ['read-rate-limit', 'idempotency', 'strict-input'],
  params: BatchIdParams,
  notFound: 'batch_not_found',
  responses: { 200: { description: 'the batch', schema: BatchSchema } },
  errors: ['scope_not_granted'],
  access: { table: 'count', readObjects: ['outputs'] },
  timeoutSeconds: 10,
  maxBodyBytes: 0,
});

/** `GET /v1/batches/{id}` */
export const handler = implement(route, async ({ services, principal, params }) => {
  return { status: 200, body: await presentBatch(services, await findVisibleBatch(services, principal, params.id)) };
});
