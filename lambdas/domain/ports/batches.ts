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
}
