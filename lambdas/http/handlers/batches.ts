import { presentBatch } from '../../domain/batches/batch-view.js';
import { createBatch as create, findVisibleBatch } from '../../domain/batches/batches.js';
import { cancelBatch as cancel } from '../../domain/batches/cancel.js';
import { InProcessBatchRunner } from '../../domain/batches/in-process-runner.js';
import { startBatchAdmission } from '../../domain/batches/start.js';
import { implement } from '../implement.js';
import { batchLineReader } from '../inference/batch-line.js';
import * as batches from '../routes/batches.js';

// Batches (docs/batches.md): create, read, list, cancel.

/** `POST /v1/batches` */
export const createBatch = implement(batches.createBatch, async ({ services, principal, body }) => {
  const batch = await create(services, principal, body);
  // a state machine run on AWS, the driver after the answer locally; the sweeper takes over a batch whose admission stopped
  await startBatchAdmission(
    services,
    batch,
    services.batchStateMachine ?? new InProcessBatchRunner(() => services, batchLineReader),
  );
  return { status: 202, body: await presentBatch(services, batch) };
});

/** `GET /v1/batches/{id}` */
export const getBatch = implement(batches.getBatch, async ({ services, principal, params }) => {
  return { status: 200, body: await presentBatch(services, await findVisibleBatch(services, principal, params.id)) };
});

/** `GET /v1/batches`: newest first, the key's organisation and mode. */
export const listBatches = implement(batches.listBatches, async ({ services, principal, query }) => {
  const page = await services.batches.list({
    orgId: principal.orgId,
    livemode: principal.livemode,
    limit: query.limit,
    ...(query.starting_after ? { startingAfter: query.starting_after } : {}),
  });
  return {
    status: 200,
    body: {
      object: 'list' as const,
      data: await Promise.all(page.items.map((batch) => presentBatch(services, batch))),
      has_more: page.hasMore,
    },
  };
});

/** `POST /v1/batches/{id}/cancel`: canceling twice is fine; a finished batch is a `409`. */
export const cancelBatch = implement(batches.cancelBatch, async ({ services, principal, params }) => {
  const batch = await findVisibleBatch(services, principal, params.id);
  return { status: 200, body: await presentBatch(services, await cancel(services, batch)) };
});
