import type { JobRecord } from '../jobs/job.js';
import type { EventRecord, WebhookEvent } from '../webhooks/records.js';

// What redaction and retention remove: stored objects by key, and the customer's data kept in the
// table (a job's result, its stage results, the events that carried them). docs/internals/data-retention.md.

/** A range of keys under one prefix, in key order. */
export interface KeyRange {
  /** only keys after this one */
  startAfter?: string;
  /** only keys before this one (exclusive) */
  before?: string;
  limit: number;
}

/** The bucket's objects as keys: listed in key order and deleted. */
export interface ObjectEraser {
  /** keys under `prefix` within `range`, in key order */
  listKeys(prefix: string, range: KeyRange): Promise<string[]>;
  /** deletes every key given; a key with nothing under it is no error */
  deleteKeys(keys: readonly string[]): Promise<void>;
}

/** What marking a job redacted came to: the job as stored afterwards, and whether this call marked it. */
export interface MarkedJob {
  job: JobRecord;
  marked: boolean;
}

export interface ErasureStore {
  /**
   * Writes `set` (which carries `redacted_at`) on a settled job not yet redacted. A job already
   * redacted is left as it is (`marked: false`, the stored job); null when the job is not settled
   * or does not exist.
   */
  markRedacted(jobId: string, set: Partial<JobRecord> & { redacted_at: number }): Promise<MarkedJob | null>;
  /** the organisation's jobs of one mode with ids after `afterId` and before `beforeId`, oldest first, at most `limit` */
  listJobs(
    orgId: string,
    livemode: boolean,
    range: { afterId: string | null; beforeId: string; limit: number },
  ): Promise<JobRecord[]>;
  /** the last job id of the mode that the retention pass left nothing to do before (and at) */
  retentionCursor(orgId: string, livemode: boolean): Promise<string | null>;
  saveRetentionCursor(orgId: string, livemode: boolean, jobId: string): Promise<void>;
  /** the organisation's events about these jobs among those created within the window (epoch milliseconds) */
  eventsOfJobs(
    orgId: string,
    jobIds: ReadonlySet<string>,
    window: { fromMs: number; toMs: number },
  ): Promise<EventRecord[]>;
  /** replaces the stored envelope of an event (its id, type and dispatch state stay) */
  replaceEvent(event: WebhookEvent): Promise<void>;
}
