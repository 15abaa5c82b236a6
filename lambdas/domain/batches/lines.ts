import type { WriteOp } from '../ports/transactions.js';
import type { BatchCounters, BatchLineRecord } from './batch.js';

/** What the admission of a batch's line needs to record its outcome. */
export interface BatchLineAdmission {
  batchId: string;
  line: number;
  customId: string | null;
  /** the driver holding the batch's lease: a line is recorded only by it */
  leaseToken: string;
}

/**
 * The outcome of one line and the batch counters it moves, in one transaction with whatever made
 * the outcome (the job's admission): refused when the line already has one, or when the lease
 * passed to another driver, so no line is admitted or counted twice.
 */
export function batchLineOps(
  line: BatchLineAdmission,
  outcome: Pick<BatchLineRecord, 'job_id' | 'error'>,
  add: Partial<BatchCounters>,
): WriteOp[] {
  return [
    { kind: 'putBatchLine', line: { batch_id: line.batchId, line: line.line, custom_id: line.customId, ...outcome } },
    { kind: 'updateBatch', batchId: line.batchId, add, expectLease: { token: line.leaseToken } },
  ];
}
