import type { BatchRunner } from '../../domain/ports/batches.js';
import type { SfnSdk } from './sfn-orchestrator.js';

/** What a batch run (statemachines/batch.ts) starts from. */
export interface BatchRunInput {
  batch_id: string;
  lease_token: string;
  bucket: string;
  input_key: string;
}

/** The batch state machine on AWS: one execution per batch, named after it. */
export class SfnBatchRunner implements BatchRunner {
  readonly handedLease = true;

  constructor(
    private readonly load: () => Promise<SfnSdk>,
    private readonly stateMachineArn: string,
    private readonly bucketName: string,
  ) {}

  async start(run: { batchId: string; inputObjectKey: string; leaseToken: string | null }): Promise<void> {
    if (!run.leaseToken) throw new Error(`batch ${run.batchId}: a state machine run is handed the batch's lease`);
    const { sdk, client } = await this.load();
    const input: BatchRunInput = {
      batch_id: run.batchId,
      lease_token: run.leaseToken,
      bucket: this.bucketName,
      input_key: run.inputObjectKey,
    };
    // a batch is started once, when created; a second start (ExecutionAlreadyExists: names stay
    // taken after the run ends) is refused, and the caller leaves the batch to the sweeper
    await client.send(
      new sdk.StartExecutionCommand({
        stateMachineArn: this.stateMachineArn,
        name: run.batchId,
        input: JSON.stringify(input),
      }),
    );
  }
}
