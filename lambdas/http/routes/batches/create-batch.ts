import { presentBatch } from '../../../domain/batches/batch-view.js';
import { createBatch as create } from '../../../domain/batches/batches.js';
import { InProcessBatchRunner } from '../../../domain/batches/in-process-runner.js';
import { startBatchAdmission } from '../../../domain/batches/start.js';
import { BatchSchema, CreateBatchSchema } from '../../../schemas/batches.js';
import { implement } from '../../implement.js';
import { batchLineReader } from '../../inference/batch-line.js';
import { defineRoute, JSON_BODY_BYTES } from '../define.js';

export const route = defineRoute({
  module: import.meta.url,
  id: 'create-batch',
  method: 'POST',
  path: '/v1/batches',
  summary: 'Create a batch from a JSONL upload: each line is admitted as its own job (docs/batches.md)',
  tag: 'Batches',
  auth: 'api_key',
  middleware: ['read-rate-limit', 'idempotency', 'strict-input'],
  body: CreateBatchSchema,
  responses: {
    202: { description: 'the batch, validating; poll it or wait for batch.completed', schema: BatchSchema },
  },
  errors: ['upload_not_found', 'upload_already_consumed', 'endpoint_not_available', 'scope_not_granted'],
  // reads the input file, writes the batch; in this process it then admits the lines (jobs, ledger, the work queue)
  // and, when they are settled already, completes the batch (its output file and batch.completed)
  access: {
    table: 'readwrite',
    enqueue: true,
    enqueueWebhooks: true,
    readObjects: ['uploads', 'outputs'],
    writeObjects: ['outputs'],
  },
  timeoutSeconds: 28,
  maxBodyBytes: JSON_BODY_BYTES,
});

/** `POST /v1/batches` */
export const handler = implement(route, async ({ services, principal, body }) => {
  const batch = await create(services, principal, body);
  // a run of the batch state machine (on AWS and the local runtimes), the driver after the answer where there is
  // none (in-memory unit tests); the sweeper takes over a batch whose admission stopped
  await startBatchAdmission(
    services,
    batch,
    services.batchStateMachine ?? new InProcessBatchRunner(() => services, batchLineReader),
  );
  return { status: 202, body: await presentBatch(services, batch) };
});
