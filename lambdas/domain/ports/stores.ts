import type { JobRecord, JobStatus } from '../jobs/job.js';
import type { EventRecord } from '../webhooks/records.js';
import type { LedgerEntry } from '../money/ledger.js';
import type { StoredResponse } from './idempotency-store.js';
import type { EndpointSlug, Family } from '../catalogue/catalogue.js';
import type { UsageCounter } from '../money/usage.js';

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
    }
  | { kind: 'moveBalance'; orgId: string; livemode: boolean; delta: number; mustStayNonNegative: boolean }
  | { kind: 'appendLedger'; entry: LedgerEntry }
  | { kind: 'consumeUpload'; uploadRef: string; jobId: string }
  /** stores the response under a claimed Idempotency-Key, refused if the claim was lost */
  | { kind: 'completeIdempotency'; scopeKey: string; lockToken: string; response: StoredResponse; settlingUntil?: number }
  /** ADDs counter deltas to the usage row of (org, day, endpoint, mode), creating it when absent */
  | { kind: 'bumpUsage'; orgId: string; date: string; endpoint: EndpointSlug; livemode: boolean; deltas: Partial<Record<UsageCounter, number>> }
  /** refused when the payment provider's event was already applied: exactly-once deposits */
  | { kind: 'claimProviderEvent'; provider: string; eventId: string; orgId: string; at: number }
  | { kind: 'updateOrganization'; orgId: string; set: Partial<Pick<Organization, 'plan' | 'billing_customer_id'>> }
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
  /** one hit on a rate-limit window's counter, refused once the window holds `limit` hits */
  | { kind: 'countRequest'; counterKey: string; limit: number; expiresAt: number };

/** Thrown when a transaction's condition fails; names which ops were refused. */
export class TransactionRefused extends Error {
  constructor(readonly refusedOps: ReadonlyArray<WriteOp['kind']>) {
    super(`transaction refused by ${refusedOps.join(', ') || 'a concurrent write'}`);
  }
}

export interface UnitOfWork {
  commit(ops: readonly WriteOp[]): Promise<void>;
}

export interface JobQuery {
  orgId: string;
  livemode?: boolean;
  status?: JobStatus;
  endpoint?: EndpointSlug;
  /** leave out the child jobs an inspection runs for its stages */
  topLevelOnly?: boolean;
  limit: number;
  startingAfter?: string;
}

export interface Page<T> {
  items: T[];
  hasMore: boolean;
}

export interface JobStore {
  get(id: string): Promise<JobRecord | null>;
  list(query: JobQuery): Promise<Page<JobRecord>>;
  /** unfinished jobs whose re-drive time passed (never later than a queued job's deadline), oldest first */
  listDue(nowSeconds: number, limit: number): Promise<JobRecord[]>;
  /** moves a queued job to processing; null when it was no longer queued */
  markProcessing(id: string, startedAt: number, modelVersion: string, redriveAt: number): Promise<JobRecord | null>;
  /** pushes a queued job's next re-drive time forward */
  postponeRedrive(id: string, redriveAt: number): Promise<void>;
}

export interface Organization {
  id: string;
  name: string;
  plan: string;
  billing_country: string;
  storage_retention_days: number;
  created: number;
  /** the payment provider's customer (Stripe `cus_…`); internal, never presented */
  billing_customer_id?: string | null;
}

export interface ApiKeyRecord {
  id: string;
  org_id: string;
  name: string;
  livemode: boolean;
  prefix: string;
  scopes: Family[];
  created: number;
  last_used_at: number | null;
  revoked_at: number | null;
  expires_at: number | null;
}

/** What a presented secret resolves to: the key plus the secret's own validity. */
export interface ApiKeyCredential {
  key: ApiKeyRecord;
  secretExpiresAt: number | null;
}

export interface LedgerQuery {
  orgId: string;
  livemode?: boolean;
  /** the endpoint slug of the entries' job */
  jobEndpoint?: EndpointSlug;
  limit: number;
  startingAfter?: string;
}

export interface AccountStore {
  getOrganization(id: string): Promise<Organization | null>;
  putOrganization(org: Organization): Promise<void>;
  getBalance(orgId: string, livemode: boolean): Promise<number>;
  /** creates a zero balance for the mode; a no-op when it exists */
  openBalance(orgId: string, livemode: boolean): Promise<void>;
  /** newest first; `jobEndpoint` matches only entries that carry their job's slug */
  listLedger(query: LedgerQuery): Promise<Page<LedgerEntry>>;
  /** false (and nothing written) when the key's organisation does not exist */
  putApiKey(key: ApiKeyRecord, secretHash: string): Promise<boolean>;
  /** strongly consistent: a revoked key must fail on the very next request */
  findCredential(secretHash: string): Promise<ApiKeyCredential | null>;
  /** the secret and the keys version of its organisation and mode, read in one snapshot */
  findCredentialWithKeysVersion(secretHash: string, orgId: string, livemode: boolean): Promise<{ credential: ApiKeyCredential | null; keysVersion: number }>;
  /** every key of the organisation, newest first */
  listApiKeys(orgId: string): Promise<ApiKeyRecord[]>;
  /** by id alone, whichever organisation owns it (so another organisation's key is a 403, not a 404) */
  getApiKey(keyId: string): Promise<ApiKeyRecord | null>;
  /** sets `revoked_at` on the key and on the snapshot inside every one of its secret items, in one transaction */
  revokeApiKey(orgId: string, keyId: string, revokedAt: number): Promise<ApiKeyRecord | null>;
  /** adds a secret and caps the old ones' expiry at `oldSecretsExpireAt`, in one transaction; 'revoked' when the key is */
  rotateApiKey(orgId: string, keyId: string, rotation: ApiKeyRotation): Promise<ApiKeyRecord | 'revoked' | null>;
  /** records use at most once per `staleBefore` window; conditional, so most calls write nothing */
  touchApiKey(secretHash: string, key: ApiKeyRecord, now: number, staleBefore: number): Promise<void>;
}

export interface ApiKeyRotation {
  secretHash: string;
  prefix: string;
  now: number;
  oldSecretsExpireAt: number;
}

export interface WorkMessage {
  job_id: string;
}

/** `fast`: endpoints that accept `wait=true`; `standard`: everything else (see work-lanes.ts). */
export type WorkLane = 'standard' | 'fast';

export interface WorkQueue {
  send(message: WorkMessage, delaySeconds?: number): Promise<void>;
}

export interface StoredObject {
  contentType: string | null;
  sizeBytes: number;
  etag: string | null;
}

export interface ObjectStore {
  put(key: string, body: Uint8Array, contentType: string): Promise<void>;
  /** server-side copy within the bucket (content type kept) */
  copy(fromKey: string, toKey: string): Promise<void>;
  head(key: string): Promise<StoredObject | null>;
  /** hex SHA-256 of the stored bytes, read as a stream; null when nothing is stored under the key */
  sha256(key: string): Promise<string | null>;
  signedGetUrl(key: string, expiresInSeconds: number): Promise<string>;
  /** a PUT URL whose signature binds the content type and length */
  signedPutUrl(key: string, contentType: string, sizeBytes: number, expiresInSeconds: number): Promise<string>;
}

export interface UploadRecord {
  upload_ref: string;
  org_id: string;
  livemode: boolean;
  content_type: string;
  size_bytes: number;
  filename: string | null;
  object_key: string;
  created: number;
  /** the reference is unusable after this epoch second */
  expires_at: number;
  consumed_by: string | null;
}

export interface UploadStore {
  put(upload: UploadRecord): Promise<void>;
  get(ref: string): Promise<UploadRecord | null>;
}

/** The live model backend; test-mode jobs never reach it. */
export interface InferencePlane {
  /** true when the plane accepted the job and will call back on completion */
  submit(job: JobRecord): Promise<boolean>;
}
