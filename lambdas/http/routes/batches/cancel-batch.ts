import { presentBatch } from '../../../domain/batches/batch-view.js';
import { findVisibleBatch } from '../../../domain/batches/batches.js';
import { cancelBatch as cancel } from '../../../domain/batches/cancel.js';
import { BatchIdParams, BatchSchema } from '../../../schemas/batches.js';
import { implement } from '../../implement.js';
import { defineRoute } from '../define.js';
import { CANCEL_ACCESS } from '../jobs/data-access.js';

export const route = defineRoute({
  module: import.meta.url,
  id: 'cancel-batch',
  method: 'POST',
  path: '/v1/batches/{id}/cancel',
  summary: 'Cancel a batch: no further line is admitted, and its queued jobs are canceled and released',
  tag: 'Batches',
  auth: 'api_key',
  middleware: ['read-rate-limit', 'idempotency', 'strict-input'],
  params: BatchIdParams,
  notFound: 'batch_not_found',
  responses: { 200: { description: 'the batch, canceling or canceled', schema: BatchSchema } },
  errors: ['batch_not_cancelable', 'scope_not_granted'],
  // cancels the queued jobs, as POST /v1/jobs/{id}/cancel does
  access: CANCEL_ACCESS,
  timeoutSeconds: 28,
  maxBodyBytes: 0,
});

/** `POST /v1/batches/{id}/cancel`: canceling twice is fine; a finished batch is a `409`. */
export const handler = implement(route, async ({ services, principal, params }) => {
  const batch = await findVisibleBatch(services, principal, params.id);
  return { status: 200, body: await presentBatch(services, await cancel(services, batch)) };
});
