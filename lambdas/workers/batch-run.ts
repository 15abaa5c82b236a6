import { containerFromEnvironment } from '../composition/container.js';
import { admitItemBatch, finishRun, releaseRunLease } from '../domain/batches/map-run.js';
import type { Services } from '../domain/ports/services.js';
import { batchLineReader } from '../http/inference/batch-line.js';
import { BatchRunActionSchema, BatchRunInputSchema, FailedRunEventSchema } from '../schemas/batch-run.js';

/**
 * The batch-run worker: what every lambda:invoke task of the batch state machine calls
 * (statemachines/batch.ts). A thrown error fails the task: retried when transient, else the run
 * lets go of the batch's lease and the sweeper takes the batch over. It is also what EventBridge
 * calls when a run ends without succeeding: a failure no Catch sees (`States.DataLimitExceeded`,
 * the run's own timeout, a stop) ends the run before its "Release lease" state, so the lease is let
 * go here; after a release that ran, this finds the lease gone and changes nothing.
 */
export async function handleBatchRunAction(services: Services, payload: unknown): Promise<{ outcome: string }> {
  const failedRun = FailedRunEventSchema.safeParse(payload);
  if (failedRun.success) {
    const run = BatchRunInputSchema.parse(JSON.parse(failedRun.data.detail.input));
    await releaseRunLease(services, run.batch_id, run.lease_token);
    return { outcome: 'released' };
  }
  const action = BatchRunActionSchema.parse(payload);
  switch (action.action) {
    case 'admit_lines':
      return {
        outcome: await admitItemBatch(
          services,
          { batchId: action.batch_id, leaseToken: action.lease_token, items: action.items },
          batchLineReader(services),
        ),
      };
    case 'finish':
      return { outcome: await finishRun(services, action.batch_id, action.lease_token) };
    case 'release':
      await releaseRunLease(services, action.batch_id, action.lease_token);
      return { outcome: 'released' };
  }
}

export async function handler(event: unknown): Promise<{ outcome: string }> {
  return handleBatchRunAction(containerFromEnvironment(), event);
}
