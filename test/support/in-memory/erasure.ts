import { isTerminal, type JobRecord } from '../../../lambdas/domain/jobs/job.js';
import { timeOfId } from '../../../lambdas/domain/kernel/ids.js';
import type { ErasureStore, KeyRange, MarkedJob, ObjectEraser } from '../../../lambdas/domain/ports/erasure.js';
import type { EventRecord, WebhookEvent } from '../../../lambdas/domain/webhooks/records.js';
import { copy, type InMemoryTables } from './tables.js';

/** The objects map as a bucket listed in key order. */
export class InMemoryObjectEraser implements ObjectEraser {
  constructor(private readonly tables: InMemoryTables) {}

  async listKeys(prefix: string, range: KeyRange): Promise<string[]> {
    return [...this.tables.objects.keys()]
      .filter(
        (key) =>
          key.startsWith(prefix) &&
          (range.startAfter === undefined || key > range.startAfter) &&
          (range.before === undefined || key < range.before),
      )
      .sort()
      .slice(0, range.limit);
  }

  async deleteKeys(keys: readonly string[]): Promise<void> {
    for (const key of keys) this.tables.objects.delete(key);
  }
}

/** Redaction's writes on the job rows and event rows, and retention's cursors, as the DynamoDB adapter makes them. */
export class InMemoryErasureStore implements ErasureStore {
  constructor(private readonly tables: InMemoryTables) {}

  async markRedacted(jobId: string, set: Partial<JobRecord> & { redacted_at: number }): Promise<MarkedJob | null> {
    const job = this.tables.jobs.get(jobId);
    if (!job || !isTerminal(job.status)) return null;
    if (job.redacted_at !== undefined) return { job: copy(job), marked: false };
    const marked = { ...job, ...copy(set) };
    this.tables.jobs.set(jobId, marked);
    return { job: copy(marked), marked: true };
  }

  async listJobs(
    orgId: string,
    livemode: boolean,
    range: { afterId: string | null; beforeId: string; limit: number },
  ): Promise<JobRecord[]> {
    return [...this.tables.jobs.values()]
      .filter(
        (job) =>
          job.org_id === orgId &&
          job.livemode === livemode &&
          (range.afterId === null || job.id > range.afterId) &&
          job.id < range.beforeId,
      )
      .sort((a, b) => (a.id < b.id ? -1 : 1))
      .slice(0, range.limit)
      .map(copy);
  }

  async retentionCursor(orgId: string, livemode: boolean): Promise<string | null> {
    return this.tables.retentionCursors.get(`${orgId}#${livemode}`) ?? null;
  }

  async saveRetentionCursor(orgId: string, livemode: boolean, jobId: string): Promise<void> {
    this.tables.retentionCursors.set(`${orgId}#${livemode}`, jobId);
  }

  async eventsOfJobs(
    orgId: string,
    jobIds: ReadonlySet<string>,
    window: { fromMs: number; toMs: number },
  ): Promise<EventRecord[]> {
    return [...this.tables.events.values()]
      .map(({ record }) => record)
      .filter(
        (record) =>
          record.org_id === orgId &&
          jobIds.has(record.job_id) &&
          timeOfId(record.event.id) >= window.fromMs &&
          timeOfId(record.event.id) < window.toMs,
      )
      .map(copy);
  }

  async replaceEvent(event: WebhookEvent): Promise<void> {
    const stored = this.tables.events.get(event.id);
    if (stored) this.tables.events.set(event.id, { ...stored, record: { ...stored.record, event: copy(event) } });
  }
}
