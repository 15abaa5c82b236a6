import type { EndpointSlug } from '../catalogue/catalogue.js';
import type { JobRecord, JobStatus } from '../jobs/job.js';
import type { Page } from '../kernel/page.js';

// Jobs and what they run on: the job store, the work queues, uploads, stored objects, and the
// live inference plane.

export interface JobQuery {
  orgId: string;
  livemode?: boolean;
  status?: JobStatus;
  endpoint?: EndpointSlug;
  /** leave out the child jobs an inspection runs for its stages */
  topLevelOnly?: boolean;
  /** only the jobs of this batch */
  batchId?: string;
  limit: number;
  startingAfter?: string;
}

/** A page of due jobs; `next` (opaque) reads on after it, null when no due job is left after it. */
export interface DuePage {
  jobs: JobRecord[];
  next: string | null;
}

export interface JobStore {
  get(id: string): Promise<JobRecord | null>;
  /** the jobs with these ids as they are now (strongly consistent), in the ids' order; absent ones left out */
  getMany(ids: readonly string[]): Promise<JobRecord[]>;
  list(query: JobQuery): Promise<Page<JobRecord>>;
  /**
   * Unfinished jobs whose re-drive time passed (never later than a queued job's deadline), oldest
   * first, at most `limit`, after the place `after` a previous page ended at (its `next`).
   */
  listDue(nowSeconds: number, limit: number, after?: string | null): Promise<DuePage>;
  /** moves a queued job to processing (a batch's job: counted processing by its batch at once); null when it was no longer queued */
  markProcessing(
    id: string,
    startedAt: number,
    modelVersion: string,
    redriveAt: number,
    batchId?: string,
  ): Promise<JobRecord | null>;
  /** pushes a queued job's next re-drive time forward */
  postponeRedrive(id: string, redriveAt: number): Promise<void>;
}

export interface WorkMessage {
  job_id: string;
  /** `deadline`: the job's Svc-Deadline timer (docs/internals/deadlines.md), not work to do */
  timer?: 'deadline';
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
  /** the stored bytes; null when nothing is stored under the key */
  get(key: string): Promise<Uint8Array | null>;
  /** `length` bytes from `offset` (fewer at the end, none past it); null when nothing is stored under the key */
  getRange(key: string, offset: number, length: number): Promise<Uint8Array | null>;
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
  /**
   * Tells the plane to stop working an accepted job (its deadline passed). Optional: a plane that
   * cannot be told (or does not hear it) calls back later, and that changes nothing.
   */
  cancel?(job: JobRecord): Promise<void>;
}
