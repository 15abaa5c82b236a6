import { createHash } from 'node:crypto';
import { SQS_MAX_MESSAGE_BYTES } from '../../../lambdas/adapters/sqs-queue.js';
import { type BatchLineRecord, type BatchRecord, isBatchFinished } from '../../../lambdas/domain/batches/batch.js';
import type { JobRecord } from '../../../lambdas/domain/jobs/job.js';
import type { Page } from '../../../lambdas/domain/kernel/page.js';
import type { BatchQuery, BatchStore } from '../../../lambdas/domain/ports/batches.js';
import type {
  DuePage,
  InferencePlane,
  JobQuery,
  JobStore,
  ObjectStore,
  StoredObject,
  UploadRecord,
  UploadStore,
  WorkMessage,
  WorkQueue,
} from '../../../lambdas/domain/ports/jobs.js';
import { copy, type InMemoryTables, newestFirstPage } from './tables.js';

export class InMemoryJobStore implements JobStore {
  constructor(private readonly tables: InMemoryTables) {}

  async get(id: string): Promise<JobRecord | null> {
    const job = this.tables.jobs.get(id);
    return job ? copy(job) : null;
  }

  async getMany(ids: readonly string[]): Promise<JobRecord[]> {
    return ids.flatMap((id) => {
      const job = this.tables.jobs.get(id);
      return job ? [copy(job)] : [];
    });
  }

  async list(query: JobQuery): Promise<Page<JobRecord>> {
    const jobs = [...this.tables.jobs.values()].filter(
      (job) =>
        job.org_id === query.orgId &&
        (query.livemode === undefined || job.livemode === query.livemode) &&
        (query.status === undefined || job.status === query.status) &&
        (query.endpoint === undefined || job.endpoint === query.endpoint) &&
        !(query.topLevelOnly && job.parent_job_id) &&
        (query.batchId === undefined || job.batch_id === query.batchId),
    );
    return newestFirstPage(jobs, query);
  }

  /** The same order as the table's due index: re-drive time, then id; `next` is the last key of a full page. */
  async listDue(nowSeconds: number, limit: number, after?: string | null): Promise<DuePage> {
    const dueKey = (job: JobRecord) =>
      `${String(this.tables.jobsDueAt.get(job.id) ?? Number.POSITIVE_INFINITY).padStart(12, '0')}#${job.id}`;
    const due = [...this.tables.jobs.values()]
      .filter(
        (job) =>
          (job.status === 'queued' || job.status === 'processing') &&
          (this.tables.jobsDueAt.get(job.id) ?? Number.POSITIVE_INFINITY) <= nowSeconds &&
          (!after || dueKey(job) > after),
      )
      .sort((a, b) => (dueKey(a) < dueKey(b) ? -1 : 1));
    const page = due.slice(0, limit);
    return { jobs: page.map(copy), next: due.length > limit ? dueKey(page.at(-1)!) : null };
  }

  async markProcessing(
    id: string,
    startedAt: number,
    modelVersion: string,
    redriveAt: number,
    batchId?: string,
  ): Promise<JobRecord | null> {
    const job = this.tables.jobs.get(id);
    if (job?.status !== 'queued') return null;
    const batch = batchId ? this.tables.batches.get(batchId) : undefined;
    if (batch) batch.processing += 1;
    const picked: JobRecord = {
      ...job,
      status: 'processing',
      started_at: startedAt,
      model_version: modelVersion,
      redrive_at: redriveAt,
    };
    this.tables.jobs.set(id, picked);
    this.tables.jobsDueAt.set(id, redriveAt);
    return copy(picked);
  }

  async postponeRedrive(id: string, redriveAt: number): Promise<void> {
    const job = this.tables.jobs.get(id);
    if (!job || !this.tables.jobsDueAt.has(id)) return;
    job.redrive_at = redriveAt;
    this.tables.jobsDueAt.set(id, redriveAt);
  }
}

export class InMemoryUploadStore implements UploadStore {
  constructor(private readonly tables: InMemoryTables) {}

  async put(upload: UploadRecord): Promise<void> {
    this.tables.uploads.set(upload.upload_ref, copy(upload));
  }

  async get(ref: string): Promise<UploadRecord | null> {
    const upload = this.tables.uploads.get(ref);
    return upload ? copy(upload) : null;
  }
}

/** Objects by key; signed URLs are plain strings that name the key and the expiry. */
export class InMemoryObjectStore implements ObjectStore {
  constructor(private readonly tables: InMemoryTables) {}

  async put(key: string, body: Uint8Array, contentType: string): Promise<void> {
    this.tables.objects.set(key, { bytes: new Uint8Array(body), contentType });
  }

  async copy(fromKey: string, toKey: string): Promise<void> {
    const object = this.tables.objects.get(fromKey);
    if (object) this.tables.objects.set(toKey, object);
  }

  async head(key: string): Promise<StoredObject | null> {
    const object = this.tables.objects.get(key);
    return object ? { contentType: object.contentType, sizeBytes: object.bytes.byteLength, etag: null } : null;
  }

  async get(key: string): Promise<Uint8Array | null> {
    const object = this.tables.objects.get(key);
    return object ? new Uint8Array(object.bytes) : null;
  }

  async getRange(key: string, offset: number, length: number): Promise<Uint8Array | null> {
    const object = this.tables.objects.get(key);
    return object ? object.bytes.slice(offset, offset + Math.max(length, 0)) : null;
  }

  async sha256(key: string): Promise<string | null> {
    const object = this.tables.objects.get(key);
    return object ? createHash('sha256').update(object.bytes).digest('hex') : null;
  }

  async signedGetUrl(key: string, expiresInSeconds: number): Promise<string> {
    return `memory://objects/${key}?expires_in=${expiresInSeconds}`;
  }

  async signedPutUrl(key: string, contentType: string, sizeBytes: number, expiresInSeconds: number): Promise<string> {
    return `memory://objects/${key}?put&type=${encodeURIComponent(contentType)}&size=${sizeBytes}&expires_in=${expiresInSeconds}`;
  }
}

/** Keeps what was sent, in order, for a test to read or hand to a worker. */
export class RecordingQueue<M> {
  readonly sent: Array<{ message: M; delaySeconds: number }> = [];

  async send(message: M, delaySeconds = 0): Promise<void> {
    // the queues' declared message size (lib/queues.ts), as SQS refuses a longer message
    const bytes = Buffer.byteLength(JSON.stringify(message));
    if (bytes > SQS_MAX_MESSAGE_BYTES)
      throw new Error(
        `One or more parameters are invalid. Reason: Message must be shorter than ${SQS_MAX_MESSAGE_BYTES} bytes.`,
      );
    this.sent.push({ message: copy(message), delaySeconds });
  }

  /** Takes every message sent so far, oldest first. */
  drain(): M[] {
    return this.sent.splice(0).map(({ message }) => message);
  }
}

export class InMemoryWorkQueue extends RecordingQueue<WorkMessage> implements WorkQueue {}

/** A live inference plane that accepts (or not) and remembers what it was handed. */
export class RecordingInferencePlane implements InferencePlane {
  readonly submitted: string[] = [];
  accepts = true;

  readonly canceled: string[] = [];
  async submit(job: JobRecord): Promise<boolean> {
    this.submitted.push(job.id);
    return this.accepts;
  }
  async cancel(job: JobRecord): Promise<void> {
    this.canceled.push(job.id);
  }
}

export class InMemoryBatchStore implements BatchStore {
  private readonly outputLeases = new Map<string, { token: string; untilMs: number }>();

  constructor(private readonly tables: InMemoryTables) {}

  async takeOutputLease(batchId: string, token: string, untilMs: number, nowMs: number): Promise<boolean> {
    const held = this.outputLeases.get(batchId);
    if (!this.tables.batches.has(batchId) || (held && held.untilMs > nowMs)) return false;
    this.outputLeases.set(batchId, { token, untilMs });
    return true;
  }

  async releaseOutputLease(batchId: string, token: string): Promise<void> {
    if (this.outputLeases.get(batchId)?.token === token) this.outputLeases.delete(batchId);
  }

  async get(id: string): Promise<BatchRecord | null> {
    const batch = this.tables.batches.get(id);
    return batch ? copy(batch) : null;
  }

  async list(query: BatchQuery): Promise<Page<BatchRecord>> {
    return newestFirstPage(
      [...this.tables.batches.values()].filter(
        (batch) => batch.org_id === query.orgId && batch.livemode === query.livemode,
      ),
      query,
    );
  }

  async lines(batchId: string, from: number, to: number): Promise<BatchLineRecord[]> {
    return [...this.tables.batchLines.values()]
      .filter((line) => line.batch_id === batchId && line.line >= from && line.line < to)
      .sort((a, b) => a.line - b.line)
      .map(copy);
  }

  async listDue(nowSeconds: number, limit: number): Promise<BatchRecord[]> {
    return [...this.tables.batches.values()]
      .filter((batch) => !isBatchFinished(batch.status) && batch.lease_until <= nowSeconds)
      .sort((a, b) => a.lease_until - b.lease_until)
      .slice(0, limit)
      .map(copy);
  }
}
