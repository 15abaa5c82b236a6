import type { MemberRecord } from '../../../lambdas/domain/access/member.js';
import type { BatchLineRecord, BatchRecord } from '../../../lambdas/domain/batches/batch.js';
import type { JobRecord } from '../../../lambdas/domain/jobs/job.js';
import type { Page } from '../../../lambdas/domain/kernel/page.js';
import type { LedgerEntry } from '../../../lambdas/domain/money/ledger.js';
import type { UsageRow } from '../../../lambdas/domain/money/usage.js';
import type { ApiKeyRecord, IdempotencyRecord, Organization } from '../../../lambdas/domain/ports/access.js';
import type { UploadRecord } from '../../../lambdas/domain/ports/jobs.js';
import type { DeliveryRecord, EventRecord, WebhookEndpointRecord } from '../../../lambdas/domain/webhooks/records.js';
import { InMemoryTableStream, StreamedJobRows } from './table-stream.js';

/** One secret of an API key, as a lookup by its hash finds it: the key as it was last written, and the secret's own expiry. */
export interface SecretRow {
  keyId: string;
  orgId: string;
  expiresAt: number | null;
}

export interface BalanceRow {
  amount: number;
  /** bumped by every revocation and rotation of a key of the mode */
  keysVersion: number;
}

/**
 * Everything the in-memory ports keep, as the one DynamoDB table keeps it: the stores and the unit
 * of work read and write the same rows, so a transaction's effects show in every store at once.
 * Rows are copied on the way in and out, as a database would, so no caller holds a live row.
 */
export class InMemoryTables {
  /** the table's stream (only job rows are written to it: nothing else reads it) */
  readonly stream = new InMemoryTableStream();
  readonly organizations = new Map<string, Organization>();
  /** `org#live|test` */
  readonly balances = new Map<string, BalanceRow>();
  readonly ledger = new Map<string, LedgerEntry>();
  readonly apiKeys = new Map<string, ApiKeyRecord & { secretHashes: string[] }>();
  readonly secrets = new Map<string, SecretRow>();
  readonly members = new Map<string, MemberRecord>();
  readonly jobs: Map<string, JobRecord> = new StreamedJobRows(this.stream);
  /** when the sweeper looks at an unfinished job next (the `due` index): gone once the job leaves the queue */
  readonly jobsDueAt = new Map<string, number>();
  readonly uploads = new Map<string, UploadRecord>();
  readonly idempotency = new Map<string, IdempotencyRecord>();
  readonly rateLimitHits = new Map<string, number>();
  /** spend counters of API keys by counter key and field (domain/access/spend-limits.ts) */
  readonly keySpend = new Map<string, number>();
  /** `org#date#endpoint#live|test` */
  readonly usage = new Map<string, { orgId: string; row: UsageRow }>();
  readonly providerEvents = new Set<string>();
  readonly events = new Map<string, { record: EventRecord; dispatchDueAt: number | null }>();
  readonly endpoints = new Map<string, WebhookEndpointRecord>();
  /** webhook endpoints per organisation: present (at 0) from the organisation's creation */
  readonly endpointCounts = new Map<string, number>();
  /** `sweepAt`: when the sweeper re-sends the delivery's message, should it be lost (null once settled) */
  readonly deliveries = new Map<
    string,
    { delivery: DeliveryRecord; leaseUntil: number | null; sweepAt: number | null }
  >();
  readonly objects = new Map<string, { bytes: Uint8Array; contentType: string }>();
  readonly batches = new Map<string, BatchRecord>();
  /** `batch#line` */
  readonly batchLines = new Map<string, BatchLineRecord>();
  /** retention's cursor per `org#livemode`: the last job it finished with */
  readonly retentionCursors = new Map<string, string>();
}

export function balanceKey(orgId: string, livemode: boolean): string {
  return `${orgId}#${livemode ? 'live' : 'test'}`;
}

export function copy<T>(value: T): T {
  return structuredClone(value);
}

/** Newest first by id (ids are time-ordered), after the `startingAfter` cursor, one page of `limit`. */
export function newestFirstPage<T extends { id: string }>(
  rows: Iterable<T>,
  query: { limit: number; startingAfter?: string | undefined },
): Page<T> {
  const sorted = [...rows]
    .sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
    .filter((row) => query.startingAfter === undefined || row.id < query.startingAfter);
  return { items: sorted.slice(0, query.limit).map(copy), hasMore: sorted.length > query.limit };
}

export function batchLineKey(batchId: string, line: number): string {
  return `${batchId}#${line}`;
}
