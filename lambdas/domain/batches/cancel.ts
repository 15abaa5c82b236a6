import { cancelQueuedJob } from '../jobs/settlement.js';
import { ApiError } from '../kernel/errors.js';
import { inPool } from '../kernel/pool.js';
import type { Services } from '../ports/services.js';
import { TransactionRefused } from '../ports/transactions.js';
import { type BatchRecord, isBatchFinished } from './batch.js';
import { completeBatchIfSettled } from './completion.js';

/**
 * `POST /v1/batches/{id}/cancel`: no further line is admitted (the driver stops at its next
 * chunk and counts the rest canceled), and the batch's queued jobs are canceled, each releasing its
 * reservation. Canceling twice is fine; a finished batch is `409 batch_not_cancelable`.
 */
export async function cancelBatch(services: Services, batch: BatchRecord): Promise<BatchRecord> {
  if (batch.status === 'canceled' || (batch.cancel_requested && !isBatchFinished(batch.status))) return batch;
  if (isBatchFinished(batch.status)) throw notCancelable(batch);
  try {
    await services.uow.commit([
      {
        kind: 'updateBatch',
        batchId: batch.id,
        set: { cancel_requested: true },
        expectStatus: ['validating', 'running'],
      },
    ]);
  } catch (error) {
    if (!(error instanceof TransactionRefused)) throw error;
    const now = await services.batches.get(batch.id);
    if (now?.status === 'canceled') return now;
    throw notCancelable(now ?? batch);
  }
  await cancelQueuedBatchJobs(services, batch.id, batch.total);
  await completeBatchIfSettled(services, batch.id);
  return (await services.batches.get(batch.id)) ?? batch;
}

/** Cancels the queued jobs of lines below `upTo`; a job picked up meanwhile runs to its end. */
export async function cancelQueuedBatchJobs(services: Services, batchId: string, upTo: number): Promise<void> {
  const lines = await services.batches.lines(batchId, 0, upTo);
  const jobIds = lines.flatMap((line) => (line.job_id ? [line.job_id] : []));
  await inPool(jobIds, 8, async (jobId) => {
    const job = await services.jobs.get(jobId);
    if (job?.status === 'queued') await cancelQueuedJob(services, job);
  });
}

function notCancelable(batch: BatchRecord): ApiError {
  return new ApiError(
    'batch_not_cancelable',
    'id',
    `Batch ${batch.id} is ${batch.status}; only a validating or running batch can be canceled.`,
  );
}
