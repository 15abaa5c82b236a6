import { isBatchFinished } from '../batches/batch.js';
import { redactBatchOutputs } from '../batches/output-redaction.js';
import { inputFolder } from '../jobs/inputs.js';
import { isTerminal, type JobRecord, outputFolder } from '../jobs/job.js';
import { uploadFolder } from '../jobs/uploads.js';
import { BATCH_ID_PATTERN, timeOrderedFloor } from '../kernel/ids.js';
import type { Services } from '../ports/services.js';
import { markJobRedacted, redactEvents } from './redaction.js';
import { retentionCutoffMs } from './retention-period.js';

/**
 * Retention (docs/internals/data-retention.md): an organisation's files older than its
 * `storage_retention_days` are deleted, and the results of its jobs older than that are redacted,
 * by the code `POST /v1/jobs/{id}/redact` runs. Age is read from the keys themselves: job ids and
 * upload references are time-ordered, and a job's files live under its id. So each pass lists
 * only what it deletes (plus what a running job still holds), oldest first, and stops at the cutoff.
 */

/** Jobs redacted per step; the cursor is saved after each. */
const JOB_PAGE = 100;
/** Keys listed per step. */
const KEY_PAGE = 1000;

export interface RetentionOutcome {
  organizations: number;
  /** jobs this pass redacted (an inspection's stage jobs go with it, uncounted) */
  jobsRedacted: number;
  filesDeleted: number;
  /** false when `goOn` stopped the pass early: the next one carries on from the saved cursors */
  complete: boolean;
}

export interface RetentionOptions {
  /** asked between steps; false stops the pass (a Lambda's remaining time) */
  goOn?: () => boolean;
}

/** One pass over every organisation. */
export async function enforceRetention(services: Services, options: RetentionOptions = {}): Promise<RetentionOutcome> {
  const goOn = options.goOn ?? (() => true);
  const outcome: RetentionOutcome = { organizations: 0, jobsRedacted: 0, filesDeleted: 0, complete: true };
  for (const organization of await services.accounts.listOrganizations()) {
    const cutoffMs = retentionCutoffMs(services.clock, organization);
    for (const livemode of [false, true]) {
      const jobs = await redactJobsBefore(services, organization.id, livemode, cutoffMs, goOn);
      outcome.jobsRedacted += jobs.redacted;
      if (!jobs.complete) return { ...outcome, complete: false };
    }
    const files = await deleteObjectsBefore(services, organization.id, cutoffMs, goOn);
    outcome.filesDeleted += files.deleted;
    if (!files.complete) return { ...outcome, complete: false };
    outcome.organizations += 1;
  }
  if (outcome.jobsRedacted || outcome.filesDeleted) services.log.info('retention enforced', { ...outcome });
  return outcome;
}

/** Whether retention is done with a job: redacted, or a stage job (redacted with its inspection, which is older). */
function done(job: JobRecord, redacted: ReadonlySet<string>): boolean {
  return job.parent_job_id !== undefined || job.redacted_at !== undefined || redacted.has(job.id);
}

/**
 * Redacts the records of every settled job of the mode created before the cutoff, oldest first,
 * after the cursor. A job that cannot be redacted yet (still running, or a stage of it) is passed
 * over and holds the cursor, so the next pass looks at it again; everything else moves on.
 */
async function redactJobsBefore(
  services: Services,
  orgId: string,
  livemode: boolean,
  cutoffMs: number,
  goOn: () => boolean,
): Promise<{ redacted: number; complete: boolean }> {
  const beforeId = timeOrderedFloor('job', cutoffMs);
  let afterId = await services.erasure.retentionCursor(orgId, livemode);
  let cursorHeld = false;
  let redacted = 0;
  for (;;) {
    if (!goOn()) return { redacted, complete: false };
    const page = await services.erasure.listJobs(orgId, livemode, { afterId, beforeId, limit: JOB_PAGE });
    const due = page.filter((job) => !job.parent_job_id && job.redacted_at === undefined);
    const outcomes = await Promise.all(due.map(async (job) => ({ job, marked: await markJobRedacted(services, job) })));
    const markedIds = new Set<string>();
    for (const { job, marked } of outcomes) {
      if ('refused' in marked) continue;
      markedIds.add(job.id);
      if (marked.newly) redacted += 1;
    }
    const redactedJobs = page.filter((job) => !job.parent_job_id && done(job, markedIds));
    await redactEvents(services, orgId, redactedJobs);
    await redactBatchOutputs(services, redactedJobs);
    // the cursor moves over the jobs with nothing left to do, up to the first that still has
    const firstPending = page.findIndex((job) => !done(job, markedIds));
    const finished = firstPending < 0 ? page : page.slice(0, firstPending);
    if (!cursorHeld && finished.length)
      await services.erasure.saveRetentionCursor(orgId, livemode, finished.at(-1)!.id);
    if (firstPending >= 0) cursorHeld = true;
    if (page.length < JOB_PAGE) return { redacted, complete: true };
    afterId = page.at(-1)!.id;
  }
}

/** Keys under `prefix` before `before`, in key order, a page at a time; false when `goOn` stopped it. */
async function forEachKeyPage(
  services: Services,
  prefix: string,
  before: string,
  goOn: () => boolean,
  visit: (keys: string[]) => Promise<void>,
): Promise<boolean> {
  let startAfter: string | undefined;
  for (;;) {
    if (!goOn()) return false;
    const keys = await services.objectEraser.listKeys(prefix, {
      before,
      limit: KEY_PAGE,
      ...(startAfter ? { startAfter } : {}),
    });
    if (keys.length) await visit(keys);
    if (keys.length < KEY_PAGE) return true;
    startAfter = keys.at(-1)!;
  }
}

/**
 * Deletes the organisation's objects older than the cutoff. A job's files are as old as the job:
 * they go when it is redacted (or never existed: the files of a refused admission, a test event);
 * a job still running, or not redacted yet, keeps them. A batch's output file goes once the batch
 * is settled and older than the cutoff (its key, `bat_…`, lists before every job's). An upload is
 * as old as its reference and goes unless a job still running or a batch not settled uses it (a
 * batch's input file is read until its last line has an outcome).
 */
async function deleteObjectsBefore(
  services: Services,
  orgId: string,
  cutoffMs: number,
  goOn: () => boolean,
): Promise<{ deleted: number; complete: boolean }> {
  let deleted = 0;
  const remove = async (keys: readonly string[]) => {
    if (!keys.length) return;
    await services.objectEraser.deleteKeys(keys);
    deleted += keys.length;
  };
  const jobBound = timeOrderedFloor('job', cutoffMs);
  const batchBound = timeOrderedFloor('bat', cutoffMs);
  const expired = async (ownerId: string): Promise<boolean> => {
    if (BATCH_ID_PATTERN.test(ownerId)) {
      const batch = await services.batches.get(ownerId);
      return ownerId < batchBound && (batch === null || isBatchFinished(batch.status));
    }
    const job = await services.jobs.get(ownerId);
    return job === null || job.redacted_at !== undefined;
  };
  for (const folder of [inputFolder(orgId), outputFolder(orgId)]) {
    const complete = await forEachKeyPage(services, folder, `${folder}${jobBound}`, goOn, async (keys) => {
      const byOwner = new Map<string, string[]>();
      for (const key of keys) {
        const ownerId = key.slice(folder.length).split('/')[0]!;
        byOwner.set(ownerId, [...(byOwner.get(ownerId) ?? []), key]);
      }
      const gone = await Promise.all([...byOwner.keys()].map(expired));
      await remove([...byOwner.values()].filter((_, i) => gone[i]).flat());
    });
    if (!complete) return { deleted, complete: false };
  }
  const uploads = uploadFolder(orgId);
  const complete = await forEachKeyPage(
    services,
    uploads,
    `${uploads}${timeOrderedFloor('upl', cutoffMs)}`,
    goOn,
    async (keys) => {
      const inUse = await Promise.all(
        keys.map(async (key) => {
          const consumer = (await services.uploads.get(key.slice(uploads.length)))?.consumed_by;
          if (!consumer) return false;
          if (BATCH_ID_PATTERN.test(consumer)) {
            const batch = await services.batches.get(consumer);
            return batch !== null && !isBatchFinished(batch.status);
          }
          const job = await services.jobs.get(consumer);
          return job !== null && !isTerminal(job.status);
        }),
      );
      await remove(keys.filter((_, i) => !inUse[i]));
    },
  );
  return { deleted, complete };
}
