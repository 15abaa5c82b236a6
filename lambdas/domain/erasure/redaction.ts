import { redactBatchOutputs } from '../batches/output-redaction.js';
import { inputFolder } from '../jobs/inputs.js';
import { isTerminal, type JobRecord, outputFolder } from '../jobs/job.js';
import type { PublicJob, PublicStage } from '../jobs/public-job.js';
import { epochSeconds } from '../kernel/clock.js';
import type { Services } from '../ports/services.js';
import { isJobEvent, type WebhookEvent } from '../webhooks/records.js';

/**
 * Redaction (docs/internals/data-retention.md): a settled job's input and output files are deleted and its
 * result is set to null for good. What billing and audit need stays: id, endpoint, status, times,
 * credits, error, model version, the inputs' types and sizes. Retention (retention.ts) redacts
 * through the same functions.
 */

/** The answer of `POST /v1/jobs/{id}/redact`. */
export interface Redaction {
  object: 'redaction';
  job_id: string;
  /** when the job was first redacted: a repeated call answers the same time */
  redacted_at: number;
  /** objects this call deleted (a repeated call finds none left: 0) */
  files_deleted: number;
}

/** Why a job cannot be redacted now (`409 job_not_redactable`). */
export interface RedactionRefused {
  refused: string;
}

/** Keys a listing call returns at most; the S3 adapter pages below it. */
const LIST_PAGE = 1000;

/**
 * Events are written in the transaction that settles (or records a stage of) their job, so their
 * time-ordered ids lie between the job's creation and settlement; this margin covers the clocks of
 * different functions.
 */
const EVENT_WINDOW_SLACK_MS = 5 * 60_000;

/** What a redaction writes on a job: everything derived from the customer's data goes. */
export function redactedFields(job: JobRecord, redactedAt: number): Partial<JobRecord> & { redacted_at: number } {
  return {
    redacted_at: redactedAt,
    result: null,
    files: {},
    params: {},
    // the object keys stay: a redaction that died half-way is finished from them
    inputs: job.inputs.map((input) => ({ ...input, filename: null, sha256: null })),
    ...(job.stages ? { stages: job.stages.map((stage) => ({ ...stage, result: null })) } : {}),
  };
}

/** Why the job cannot be redacted by its own call, or null when it can. */
export function refusalOf(job: JobRecord): string | null {
  if (job.parent_job_id)
    return `Job ${job.id} is a stage of inspection ${job.parent_job_id}; its data goes with the inspection: redact ${job.parent_job_id}.`;
  if (!isTerminal(job.status))
    return `Job ${job.id} is ${job.status}; only a settled job (succeeded, failed, expired or canceled) can be redacted.`;
  return null;
}

/**
 * The jobs one redaction covers: the job and, for an inspection, the stage jobs it ran (their
 * results are its stage results, their files its files). Every one must have settled.
 */
async function jobsCoveredBy(services: Services, job: JobRecord): Promise<JobRecord[] | RedactionRefused> {
  const stageJobIds = (job.stages ?? []).flatMap((stage) => (stage.job_id ? [stage.job_id] : []));
  const stageJobs = (await Promise.all(stageJobIds.map((id) => services.jobs.get(id)))).filter(
    (stageJob): stageJob is JobRecord => stageJob !== null,
  );
  const running = stageJobs.find((stageJob) => !isTerminal(stageJob.status));
  if (running)
    return {
      refused: `Stage job ${running.id} of inspection ${job.id} is still ${running.status}; redact once it has settled.`,
    };
  return [...stageJobs, job];
}

/**
 * Marks the job (an inspection with its stage jobs) redacted, the inspection last, so a redacted
 * inspection always has redacted stage jobs. A job already redacted keeps its first time. Its events
 * and files are left to the caller; the jobs covered keep their object keys for that.
 */
export async function markJobRedacted(
  services: Services,
  job: JobRecord,
): Promise<{ jobs: JobRecord[]; redactedAt: number; newly: boolean } | RedactionRefused> {
  if (!isTerminal(job.status)) return { refused: refusalOf(job)! };
  const jobs = await jobsCoveredBy(services, job);
  if ('refused' in jobs) return jobs;
  const now = epochSeconds(services.clock);
  const mark = (covered: JobRecord) => services.erasure.markRedacted(covered.id, redactedFields(covered, now));
  const stageJobs = await Promise.all(jobs.slice(0, -1).map(mark));
  const marked = await mark(job);
  if (!marked || stageJobs.includes(null)) return { refused: `Job ${job.id} is no longer settled.` };
  return { jobs, redactedAt: marked.job.redacted_at!, newly: marked.marked };
}

/**
 * `POST /v1/jobs/{id}/redact` (and its dashboard twin). Every step can run again: a second call, or
 * one after a call that died half-way, marks nothing new, finds what is left, and deletes it.
 */
export async function redactJob(services: Services, job: JobRecord): Promise<Redaction | RedactionRefused> {
  const refusal = refusalOf(job);
  if (refusal) return { refused: refusal };
  const redacted = await markJobRedacted(services, job);
  if ('refused' in redacted) return redacted;
  await redactEvents(services, job.org_id, redacted.jobs);
  const filesDeleted = await deleteStoredObjects(services, redacted.jobs);
  // after the mark: a completion that takes the batch's output lease later reads the job redacted
  await redactBatchOutputs(services, redacted.jobs);
  services.log.info('job redacted', { org_id: job.org_id, job_id: job.id, files_deleted: filesDeleted });
  return { object: 'redaction', job_id: job.id, redacted_at: redacted.redactedAt, files_deleted: filesDeleted };
}

/** Every key under `prefix`, in key order. */
export async function listAllKeys(services: Services, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for (;;) {
    const page = await services.objectEraser.listKeys(prefix, {
      limit: LIST_PAGE,
      ...(keys.length ? { startAfter: keys.at(-1)! } : {}),
    });
    keys.push(...page);
    if (page.length < LIST_PAGE) return keys;
  }
}

/** The objects stored for a job now: its multipart inputs and produced files (its own folders) and the uploads it consumed. */
async function storedObjectsOf(services: Services, job: JobRecord): Promise<string[]> {
  const folders = [inputFolder(job.org_id), outputFolder(job.org_id)].map((folder) => `${folder}${job.id}/`);
  const uploads = job.inputs
    .map((input) => input.object_key)
    .filter((key) => !folders.some((folder) => key.startsWith(folder)));
  const found = await Promise.all([
    ...folders.map((folder) => listAllKeys(services, folder)),
    ...uploads.map(async (key) =>
      (await services.objectEraser.listKeys(key, { limit: 1 })).filter((listed) => listed === key),
    ),
  ]);
  return found.flat();
}

/** Deletes every object stored for the jobs; how many there were. */
export async function deleteStoredObjects(services: Services, jobs: readonly JobRecord[]): Promise<number> {
  const keys = [...new Set((await Promise.all(jobs.map((job) => storedObjectsOf(services, job)))).flat())];
  if (keys.length) await services.objectEraser.deleteKeys(keys);
  return keys.length;
}

/**
 * A report that arrives after its job was redacted changes nothing, but the inference plane wrote
 * its files first: they go again. How many there were.
 */
export async function deleteLateOutputs(services: Services, job: JobRecord): Promise<number> {
  const keys = await listAllKeys(services, `${outputFolder(job.org_id)}${job.id}/`);
  if (keys.length) await services.objectEraser.deleteKeys(keys);
  return keys.length;
}

function withoutResult(stage: PublicStage): PublicStage {
  const { result: _result, ...rest } = stage;
  return rest;
}

/** The job as a redacted one shows: no result, no stage results. */
export function redactedPublicJob(job: PublicJob): PublicJob {
  return { ...job, result: null, ...(job.stages ? { stages: job.stages.map(withoutResult) } : {}) };
}

/** Whether a presented job shows anything a redaction takes away. */
function showsResult(job: PublicJob): boolean {
  return job.result !== null || (job.stages ?? []).some((stage) => stage.result !== undefined);
}

/**
 * Events keep the job as it was announced (`GET /mgmt/v1/events/{id}`, redeliveries): a redaction
 * takes the result and the stage results out of them too. Many jobs at once (retention redacts a
 * page of them) cost one pass over their window.
 */
export async function redactEvents(services: Services, orgId: string, jobs: readonly JobRecord[]): Promise<void> {
  if (!jobs.length) return;
  const now = services.clock.nowMs();
  const window = {
    fromMs: Math.min(...jobs.map((job) => job.created * 1000)) - EVENT_WINDOW_SLACK_MS,
    toMs:
      Math.max(...jobs.map((job) => (job.completed_at === null ? now : (job.completed_at + 1) * 1000))) +
      EVENT_WINDOW_SLACK_MS,
  };
  const events = await services.erasure.eventsOfJobs(orgId, new Set(jobs.map((job) => job.id)), window);
  await Promise.all(
    events
      .flatMap((record) => (isJobEvent(record.event.data) ? [{ event: record.event, data: record.event.data }] : []))
      .filter(({ data }) => showsResult(data.job) || data.stage?.result !== undefined)
      .map(
        ({ event, data }): WebhookEvent => ({
          ...event,
          data: { job: redactedPublicJob(data.job), stage: data.stage && withoutResult(data.stage) },
        }),
      )
      .map((event) => services.erasure.replaceEvent(event)),
  );
}

function isPublicJob(body: unknown): body is PublicJob {
  return (
    typeof body === 'object' &&
    body !== null &&
    (body as { object?: unknown }).object === 'job' &&
    typeof (body as { id?: unknown }).id === 'string'
  );
}

/**
 * A stored answer replayed for an `Idempotency-Key` (a `wait=true` call's `200` holds the settled
 * job) shows the job redacted once it is: a replay never brings a result back.
 */
export async function replayedAfterRedaction(services: Services, body: unknown): Promise<unknown> {
  if (!isPublicJob(body) || !showsResult(body)) return body;
  const job = await services.jobs.get(body.id);
  return job?.redacted_at === undefined ? body : redactedPublicJob(body);
}
