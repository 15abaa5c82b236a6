import { logFailure } from '../kernel/failure-log.js';
import type { BatchRunner } from '../ports/batches.js';
import type { Services } from '../ports/services.js';
import type { BatchRecord } from './batch.js';
import { storedInputLines } from './input-file.js';
import { leaseForRun, readableAsItems, releaseRunLease } from './map-run.js';

/**
 * Starts admitting a created batch's lines through `runner` (docs/internals/batches.md, "How it runs"): the
 * service's batch state machine (on AWS and the local runtimes), or the in-process driver where there is none. A run handed the lease (the Distributed Map) takes files its JSONL reader
 * reads item for item; any other file, a lease someone holds, or a run that did not start is left
 * to the sweeper, whose take-over is the fallback: the lease is let go at once.
 */
export async function startBatchAdmission(services: Services, batch: BatchRecord, runner: BatchRunner): Promise<void> {
  if (!runner.handedLease)
    return runner.start({ batchId: batch.id, inputObjectKey: batch.input_object_key, leaseToken: null });
  let leaseToken: string | null = null;
  try {
    if (!readableAsItems(await storedInputLines(services, batch.input_object_key))) return;
    leaseToken = await leaseForRun(services, batch.id);
    if (leaseToken) await runner.start({ batchId: batch.id, inputObjectKey: batch.input_object_key, leaseToken });
  } catch (error) {
    // the batch is created and answered for whatever happens here
    logFailure(services.log, 'batch run did not start; the sweeper takes the batch over', error, {
      batch_id: batch.id,
    });
    if (leaseToken) await releaseRunLease(services, batch.id, leaseToken);
  }
}
