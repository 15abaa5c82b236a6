import type { Principal } from '../access/principal.js';
import { presentStages } from '../inspections/stage-view.js';
import { epochSeconds } from '../kernel/clock.js';
import { ApiError } from '../kernel/errors.js';
import { JOB_ID_PATTERN } from '../kernel/ids.js';
import { type ListBody, presentPage } from '../kernel/page.js';
import type { JobQuery } from '../ports/jobs.js';
import type { Services } from '../ports/services.js';
import type { JobRecord, ProducedFile } from './job.js';
import type { PublicJob } from './public-job.js';

export type { PublicJob } from './public-job.js';

function isFileReference(value: unknown): value is { file_key: string } {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    typeof (value as { file_key?: unknown }).file_key === 'string' &&
    Object.keys(value).length === 1
  );
}

/** Replaces every `{ file_key }` in a stored result with a freshly signed URL. */
async function signFiles(
  services: Services,
  value: unknown,
  files: Record<string, ProducedFile>,
  expiresAt: number,
): Promise<unknown> {
  if (isFileReference(value)) {
    const file = files[value.file_key];
    if (!file) return null;
    return {
      url: await services.objects.signedGetUrl(file.object_key, services.config.signedUrlTtlSeconds),
      expires_at: expiresAt,
      content_type: file.content_type,
      width: file.width,
      height: file.height,
      size_bytes: file.size_bytes,
    };
  }
  if (Array.isArray(value)) return Promise.all(value.map((item) => signFiles(services, item, files, expiresAt)));
  if (typeof value === 'object' && value !== null) {
    const entries = await Promise.all(
      Object.entries(value).map(async ([k, v]) => [k, await signFiles(services, v, files, expiresAt)] as const),
    );
    return Object.fromEntries(entries);
  }
  return value;
}

export async function presentJob(services: Services, job: JobRecord): Promise<PublicJob> {
  const expiresAt = epochSeconds(services.clock) + services.config.signedUrlTtlSeconds;
  const result =
    job.status === 'succeeded' && job.result
      ? ((await signFiles(services, job.result, job.files ?? {}, expiresAt)) as Record<string, unknown>)
      : null;
  return {
    id: job.id,
    object: 'job',
    endpoint: job.endpoint,
    status: job.status,
    livemode: job.livemode,
    created: job.created,
    started_at: job.started_at,
    completed_at: job.completed_at,
    model_version: job.model_version,
    credits: { reserved: job.credits.reserved, charged: job.credits.charged },
    result,
    error: job.status === 'failed' || job.status === 'expired' ? job.error : null,
    ...(job.endpoint === 'inspections'
      ? {
          stages: await presentStages(
            services,
            job,
            async (stored) =>
              (await signFiles(services, stored, job.files ?? {}, expiresAt)) as Record<string, unknown>,
          ),
        }
      : {}),
    ...(job.test_scenario && !job.livemode ? { test_scenario: job.test_scenario } : {}),
  };
}

/** A page of jobs in the list shape both surfaces share. */
export async function presentJobPage(services: Services, query: JobQuery): Promise<ListBody<PublicJob>> {
  return presentPage(await services.jobs.list(query), (job) => presentJob(services, job));
}

/**
 * A job is visible to keys of its organisation and mode. Another organisation's job is a `403`
 * (docs/internals/jobs-and-credits.md: another organisation's resource is always a 403, and the route
 * lists it); the other mode's job, like an absent one, is not visible to the key: `404`.
 */
export async function findVisibleJob(services: Services, principal: Principal, id: string): Promise<JobRecord> {
  if (!JOB_ID_PATTERN.test(id)) throw new ApiError('job_not_found', 'id', `No such job: ${id}.`);
  const job = await services.jobs.get(id);
  if (job && job.org_id !== principal.orgId)
    throw new ApiError('scope_not_granted', null, 'This job belongs to another organisation.');
  if (!job || job.livemode !== principal.livemode) throw new ApiError('job_not_found', 'id', `No such job: ${id}.`);
  return job;
}
