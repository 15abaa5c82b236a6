import type { BatchRunInput } from '../../lambdas/adapters/step-functions/sfn-batch-runner.js';
import type { BatchRunner } from '../../lambdas/domain/ports/batches.js';
import type { LocalStepFunctions } from './step-functions-engine.js';

/**
 * The batch state machine under `npm start`: what SfnBatchRunner starts on AWS, started on the
 * local engine, which runs its Distributed Map itself (local/stand-ins/distributed-map.ts). One
 * execution per batch, named after it; a second start of a name is refused, as AWS refuses it.
 */
export class LocalBatchRunner implements BatchRunner {
  readonly handedLease = true;

  constructor(
    private readonly engine: LocalStepFunctions,
    private readonly bucketName: string,
  ) {}

  async start(run: { batchId: string; inputObjectKey: string; leaseToken: string | null }): Promise<void> {
    if (!run.leaseToken) throw new Error(`batch ${run.batchId}: a state machine run is handed the batch's lease`);
    if (this.engine.describeNamed(run.batchId) !== 'unknown')
      throw Object.assign(new Error(`Execution already exists: '${run.batchId}'`), { name: 'ExecutionAlreadyExists' });
    const input: BatchRunInput = {
      batch_id: run.batchId,
      lease_token: run.leaseToken,
      bucket: this.bucketName,
      input_key: run.inputObjectKey,
    };
    await this.engine.startNamed(run.batchId, input);
  }
}
