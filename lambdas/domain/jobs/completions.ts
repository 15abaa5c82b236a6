import { CATALOGUE } from '../catalogue/catalogue.js';
import { ApiError } from '../kernel/errors.js';
import type { Services } from '../ports/services.js';
import { expirePastDeadline } from './deadline-expiry.js';
import { deadlinePassed } from './deadline-timer.js';
import { imageSize } from './image-size.js';
import { isTerminal, type JobRecord, outputObjectKey, type ProducedFile } from './job.js';
import type { PlaneErrorCode } from './job-errors.js';
import { settleJob, type WorkOutcome } from './settlement.js';

/** What the inference plane reports for a live job it accepted (the signed callback, validated). */
export type Completion =
  | {
      status: 'succeeded';
      modelVersion: string;
      /** stored shape: produced files are `{ file_key }` placeholders */
      result: Record<string, unknown>;
      /** every `file_key` the result references */
      fileKeys: readonly string[];
      billableUnits?: number;
    }
  | { status: 'failed'; modelVersion: string; error: { code: PlaneErrorCode; message: string } };

/** Flat names, so a key cannot climb out of the job's folder. */
const FILE_KEY = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

/** Image types whose size is in their first bytes; 64 KiB holds a JPEG's frame header past usual metadata. */
const SIZED_IMAGE_TYPES = new Set(['image/png', 'image/jpeg']);
const IMAGE_HEADER_BYTES = 64 * 1024;

/** A produced image's pixel size, read from its header with one ranged read; null for other files. */
async function producedImageSize(services: Services, objectKey: string, contentType: string | null) {
  if (!contentType || !SIZED_IMAGE_TYPES.has(contentType)) return null;
  const head = await services.objects.getRange(objectKey, 0, IMAGE_HEADER_BYTES);
  return head ? imageSize(head) : null;
}

/**
 * The live job a callback names. Unknown ids and test-mode jobs (which the plane never
 * receives) are `404`; a job still `queued` is `409 job_not_processing`, since the plane can
 * answer before the hand-over is recorded and should retry. Settled jobs come back as they are.
 */
export async function jobForCompletion(services: Services, jobId: string): Promise<JobRecord> {
  const job = await services.jobs.get(jobId);
  if (!job?.livemode) throw new ApiError('job_not_found', 'job_id', `No live job ${jobId}.`);
  if (job.status === 'queued')
    throw new ApiError(
      'job_not_processing',
      'job_id',
      `Job ${jobId} is still queued; retry once the inference plane's acceptance is recorded.`,
    );
  return job;
}

/** Units billed when the plane does not say: one request, or one per image received. */
function defaultBillableUnits(job: JobRecord): number {
  switch (CATALOGUE[job.endpoint].metering) {
    case 'per_image':
      return Math.max(job.inputs.length, 1);
    case 'per_second':
      throw new ApiError(
        'parameter_missing',
        'billable_units',
        `${job.endpoint} bills per second: report the seconds processed in billable_units.`,
      );
    default:
      return 1;
  }
}

/** The plane wrote each referenced file to `outputs/<org>/<job>/<file_key>`; each must be there. */
async function producedFiles(
  services: Services,
  job: JobRecord,
  fileKeys: readonly string[],
): Promise<Record<string, ProducedFile>> {
  const entries = await Promise.all(
    [...new Set(fileKeys)].map(async (fileKey) => {
      if (!FILE_KEY.test(fileKey))
        throw new ApiError(
          'parameter_invalid',
          'result',
          `Invalid file_key ${JSON.stringify(fileKey)}: use letters, digits, ".", "_" and "-".`,
        );
      const objectKey = outputObjectKey(job, fileKey);
      const stored = await services.objects.head(objectKey);
      if (!stored)
        throw new ApiError(
          'parameter_invalid',
          'result',
          `The result references file_key ${fileKey}, but nothing is stored at ${objectKey}.`,
        );
      const size = await producedImageSize(services, objectKey, stored.contentType);
      const file: ProducedFile = {
        object_key: objectKey,
        content_type: stored.contentType ?? 'application/octet-stream',
        size_bytes: stored.sizeBytes,
        width: size?.width ?? null,
        height: size?.height ?? null,
      };
      return [fileKey, file] as const;
    }),
  );
  return Object.fromEntries(entries);
}

/**
 * Settles a `processing` live job from its callback, in the one settlement transaction.
 * A concurrent or repeated callback settles nothing twice: the job is returned as it is. A
 * callback after the job's `Svc-Deadline` (its timer not yet arrived) settles nothing and charges
 * nothing: the job expires there and then, and is returned `expired`.
 */
export async function completeJob(services: Services, job: JobRecord, completion: Completion): Promise<JobRecord> {
  if (deadlinePassed(job, services.clock.nowMs())) return expireLate(services, job);
  const outcome: WorkOutcome =
    completion.status === 'succeeded'
      ? {
          status: 'succeeded',
          result: completion.result,
          files: await producedFiles(services, job, completion.fileKeys),
          billableUnits: completion.billableUnits ?? defaultBillableUnits(job),
          modelVersion: completion.modelVersion,
        }
      : {
          status: 'failed',
          error: { type: 'processing_error', ...completion.error },
          modelVersion: completion.modelVersion,
        };
  const settled = await settleJob(services, job, outcome);
  if (settled) return settled;
  const current = (await services.jobs.get(job.id)) ?? job;
  // refused because the deadline passed while the result was checked
  return !isTerminal(current.status) && deadlinePassed(current, services.clock.nowMs())
    ? expireLate(services, current)
    : current;
}

async function expireLate(services: Services, job: JobRecord): Promise<JobRecord> {
  return (await expirePastDeadline(services, job)) ?? (await services.jobs.get(job.id)) ?? job;
}
