import type { BatchCounters, BatchLineRecord, BatchRecord, BatchStatus } from '../batches/batch.js';
import type { EndpointSlug } from '../catalogue/catalogue.js';
import type { JobRecord, JobStatus, ProducedFile, StageRecord } from '../jobs/job.js';
import type { LedgerEntry } from '../money/ledger.js';
import type { UsageCounter } from '../money/usage.js';
import type { EventRecord } from '../webhooks/records.js';
import type { Organization, StoredResponse } from './access.js';

/** One write inside an all-or-nothing transaction, in domain terms. */
export type WriteOp =
  | { kind: 'createJob'; job: JobRecord }
  | {
      kind: 'updateJob';
      jobId: string;
      expectStatus: readonly JobStatus[];
      set: Partial<JobRecord>;
      leavesQueue: boolean;
      /** further equality conditions on top-level fields (an inspection's stage counters) */
      expectFields?: Partial<Record<'stages_started' | 'stages_recorded' | 'execution_attempt', number>>;
      /** refused once the job's `Svc-Deadline` (`deadline_at_ms`, if it has one) is at or before this instant */
      expectDeadlineAfterMs?: number;
      /**
       * an inspection's one stage that changes, with the files it produced: it replaces that stage
       * of `stages` and joins `files`. The store may keep it apart from the job (docs/internals/cost.md:
       * an update is billed for the whole item, so the inspection is not rewritten with every stage)
       */
      stage?: { record: StageRecord; files: Record<string, ProducedFile> };
    }
  | { kind: 'moveBalance'; orgId: string; livemode: boolean; delta: number; mustStayNonNegative: boolean }
  | { kind: 'appendLedger'; entry: LedgerEntry }
  | { kind: 'consumeUpload'; uploadRef: string; jobId: string }
  /** stores the response under a claimed Idempotency-Key, refused if the claim was lost */
  | {
      kind: 'completeIdempotency';
      scopeKey: string;
      lockToken: string;
      response: StoredResponse;
      settlingUntil?: number;
    }
  /** ADDs counter deltas to the usage row of (org, day, endpoint, mode), creating it when absent */
  | {
      kind: 'bumpUsage';
      orgId: string;
      date: string;
      endpoint: EndpointSlug;
      livemode: boolean;
      deltas: Partial<Record<UsageCounter, number>>;
    }
  /** refused when the payment provider's event was already applied: exactly-once deposits */
  | { kind: 'claimProviderEvent'; provider: string; eventId: string; orgId: string; at: number }
  | {
      kind: 'updateOrganization';
      orgId: string;
      set: Partial<Pick<Organization, 'plan' | 'billing_customer_id' | 'storage_retention_days'>>;
    }
  /** the outbox: a webhook event, written with the state change it announces; `dispatchDueAt` null for an event written already dispatched */
  | { kind: 'createEvent'; record: EventRecord; dispatchDueAt: number | null }
  /** refused unless the organisation's webhook endpoints are counted, and there are none */
  | { kind: 'expectNoWebhookEndpoints'; orgId: string }
  /**
   * refused when a key of the organisation in that mode was revoked or rotated since `version` was
   * read (revoke and rotate bump the mode's keys version in their own transactions): revocation
   * holds inside the admission itself. The adapter folds it into the same transaction's update of
   * that balance, so it costs no item of its own.
   */
  | { kind: 'expectKeysVersion'; orgId: string; livemode: boolean; version: number }
  /** `hits` (one when absent) on a rate-limit window's counter, refused unless the window holds them all within `limit` */
  | { kind: 'countRequest'; counterKey: string; limit: number; expiresAt: number; hits?: number }
  /** moves `fields` of a key's spend counter by `delta` credits; refused when `limit.field` would end above `limit.credits` (domain/access/spend-limits.ts) */
  | {
      kind: 'countKeySpend';
      counterKey: string;
      fields: readonly string[];
      delta: number;
      limit: { field: string; credits: number } | null;
      expiresAt: number;
    }
  /** a new batch (docs/internals/batches.md), refused when its id exists */
  | { kind: 'createBatch'; batch: BatchRecord }
  /**
   * SETs fields and ADDs counter deltas of a batch, refused unless it is in one of `expectStatus`
   * and its lease is held by `token` (or, with `freeAt`, has run out by then). `leavesDue`: the
   * sweeper stops looking at it.
   */
  | {
      kind: 'updateBatch';
      batchId: string;
      set?: Partial<
        Pick<
          BatchRecord,
          | 'status'
          | 'cursor'
          | 'stopped_at'
          | 'cancel_requested'
          | 'lease_token'
          | 'lease_until'
          | 'completed_at'
          | 'output_key'
        >
      >;
      add?: Partial<BatchCounters>;
      expectStatus?: readonly BatchStatus[];
      expectLease?: { token: string } | { freeAt: number };
      leavesDue?: boolean;
    }
  /** the outcome of one input line, refused when that line already has one: no line counts twice */
  | { kind: 'putBatchLine'; line: BatchLineRecord };

/** Thrown when a transaction's condition fails; names which ops were refused. */
export class TransactionRefused extends Error {
  constructor(readonly refusedOps: ReadonlyArray<WriteOp['kind']>) {
    super(`transaction refused by ${refusedOps.join(', ') || 'a concurrent write'}`);
  }
}

/**
 * Thrown when a transaction breaks one of DynamoDB's own limits (more than 100 writes, one item
 * written twice, an item over 400 KB): a defect in the code that built it, so never retried, and
 * nothing of it was written (docs/internals/architecture.md, "AWS's limits, enforced locally").
 */
export class TransactionInvalid extends Error {
  override readonly name = 'TransactionInvalid';
}

/** The most writes DynamoDB takes in one `TransactWriteItems`. */
export const MAX_TRANSACTION_WRITES = 100;

/** The largest item DynamoDB stores, attribute names and values included. */
export const MAX_ITEM_BYTES = 400 * 1024;

export interface UnitOfWork {
  commit(ops: readonly WriteOp[]): Promise<void>;
}
