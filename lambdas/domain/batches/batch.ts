import type { EndpointSlug } from '../catalogue/catalogue.js';

// A batch (docs/internals/batches.md): one JSONL file of call bodies, each line admitted as its own job
// through the one admission path, with counts that add up at every instant.

export const BATCH_STATUSES = ['validating', 'running', 'succeeded', 'failed', 'canceled'] as const;
export type BatchStatus = (typeof BATCH_STATUSES)[number];

/** The most lines one input file may hold. */
export const MAX_BATCH_LINES = 10_000;

/** The largest input file a batch reads (about 2 KB a line at the most lines). */
export const MAX_BATCH_INPUT_BYTES = 20 * 1024 * 1024;

/** The longest `custom_id` a line may carry. */
export const MAX_CUSTOM_ID_LENGTH = 64;

/** The media type of a batch's input file. */
export const BATCH_INPUT_MEDIA_TYPE = 'application/jsonl';

/** The media type of a batch's output file. */
export const BATCH_OUTPUT_MEDIA_TYPE = 'application/jsonl';

/** Counters kept on the batch item, each moved in the transaction that moves a line or a job. */
export interface BatchCounters {
  processing: number;
  succeeded: number;
  /** failed and expired jobs, and lines refused before they became jobs */
  failed: number;
  canceled: number;
  /** credits its jobs hold now */
  reserved: number;
  /** credits its jobs were charged */
  charged: number;
}

export const ZERO_COUNTERS: BatchCounters = {
  processing: 0,
  succeeded: 0,
  failed: 0,
  canceled: 0,
  reserved: 0,
  charged: 0,
};

export interface BatchRecord extends BatchCounters {
  id: string;
  org_id: string;
  livemode: boolean;
  api_key_id: string;
  /** the hash of the secret that created it: each line is admitted as that key (docs/internals/batches.md) */
  secret_hash: string;
  endpoint: EndpointSlug;
  /** the upload the lines were read from (consumed by the batch) */
  input_file: string;
  input_object_key: string;
  status: BatchStatus;
  /** lines in the input file */
  total: number;
  /** every line below it has its outcome recorded (a job or a failed line) */
  cursor: number;
  /** lines from here on were never admitted: counted canceled (null while admission may go on) */
  stopped_at: number | null;
  cancel_requested: boolean;
  /** who drives the batch's admission, and until when; another driver may take it over afterwards */
  lease_token: string | null;
  lease_until: number;
  created: number;
  completed_at: number | null;
  /** the output file, once written */
  output_key: string | null;
}

export interface BatchLineError {
  type:
    | 'invalid_request'
    | 'insufficient_credits'
    | 'processing_error'
    | 'not_found'
    | 'authentication'
    | 'permission'
    | 'rate_limit'
    | 'conflict'
    | 'internal';
  code: string;
  message: string;
  param: string | null;
}

/** The recorded outcome of one input line: a job, or why it became none. */
export interface BatchLineRecord {
  batch_id: string;
  line: number;
  custom_id: string | null;
  job_id: string | null;
  error: BatchLineError | null;
}

/** Lines not yet settled: neither processing nor settled, the rest of `total`. */
export function queuedCount(batch: BatchRecord): number {
  return batch.total - batch.processing - batch.succeeded - batch.failed - batch.canceled;
}

/** True when every line is settled: a job that settled, a failed line, or a line never admitted. */
export function everyLineSettled(batch: BatchRecord): boolean {
  return (
    queuedCount(batch) === 0 && batch.processing === 0 && (batch.cursor === batch.total || batch.stopped_at !== null)
  );
}

export function isBatchFinished(status: BatchStatus): boolean {
  return status === 'succeeded' || status === 'failed' || status === 'canceled';
}

/** Where a batch's output file lives: beside the organisation's produced files. */
export function batchOutputKey(batch: Pick<BatchRecord, 'org_id' | 'id'>): string {
  return `outputs/${batch.org_id}/${batch.id}/output.jsonl`;
}
