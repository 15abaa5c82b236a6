import type { BatchLineRecord, BatchRecord } from '../batches/batch.js';
import type { Page } from '../kernel/page.js';

// Batches: the batch items and their per-line outcomes (their writes go through the unit of work).

export interface BatchQuery {
  orgId: string;
  livemode: boolean;
  limit: number;
  startingAfter?: string;
}

export interface BatchStore {
  get(id: string): Promise<BatchRecord | null>;
  /** newest first */
  list(query: BatchQuery): Promise<Page<BatchRecord>>;
  /** the recorded outcomes of lines `from` (inclusive) to `to` (exclusive), in line order */
  lines(batchId: string, from: number, to: number): Promise<BatchLineRecord[]>;
  /** unfinished batches whose lease has run out, oldest lease first */
  listDue(nowSeconds: number, limit: number): Promise<BatchRecord[]>;
  /**
   * Takes the batch's output lease (batches/output-lease.ts) for `token` until `untilMs`: true when
   * it was free or had run out by `nowMs`, false when another holds it or the batch does not exist.
   */
  takeOutputLease(batchId: string, token: string, untilMs: number, nowMs: number): Promise<boolean>;
  /** lets go of the output lease when `token` still holds it */
  releaseOutputLease(batchId: string, token: string): Promise<void>;
}

/** What starts a batch's admission once the batch is created (docs/internals/deploy.md, "Batches"). */
export interface BatchRunner {
  /**
   * true: a run of its own (a Step Functions execution on AWS) is handed the batch's lease for
   * its whole length, so the sweeper leaves the batch alone until it ends or fails; false: the
   * in-process driver, which takes the lease itself, chunk by chunk.
   */
  readonly handedLease: boolean;
  /** `leaseToken`: the run's lease when `handedLease`, else null; starting the same batch twice starts it once */
  start(run: { batchId: string; inputObjectKey: string; leaseToken: string | null }): Promise<void>;
}
