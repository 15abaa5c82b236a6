import { logFailure } from '../kernel/failure-log.js';
import type { BatchRunner } from '../ports/batches.js';
import type { Services } from '../ports/services.js';
import { driveBatch, type LineReader } from './driver.js';

/**
 * The runner of a container without a batch state machine (the in-memory unit tests; docs/internals/batches.md):
 * the driver admits the batch's lines in this process, after the `202`; a crash leaves them to the
 * sweeper, which takes the batch over once its lease has run out.
 */
export class InProcessBatchRunner implements BatchRunner {
  readonly handedLease = false;

  /** `services`: read when a batch starts, so the runner can be part of the services it drives with */
  constructor(
    private readonly services: () => Services,
    private readonly lineReader: (services: Services) => LineReader,
  ) {}

  async start(run: { batchId: string }): Promise<void> {
    const services = this.services();
    services.background.add(
      driveBatch(services, run.batchId, this.lineReader(services)).catch((error: unknown) =>
        logFailure(services.log, 'batch driver stopped; the sweeper takes the batch over', error, {
          batch_id: run.batchId,
        }),
      ),
    );
  }
}
