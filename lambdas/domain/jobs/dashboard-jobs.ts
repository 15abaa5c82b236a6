import type * as z from 'zod/mini';
import type { JobInputSchema } from '../../schemas/management.js';
import { auditKeyOf } from '../access/api-key-admin.js';
import type { Member } from '../access/member.js';
import { requireSameOrganization } from '../access/members.js';
import { epochSeconds } from '../kernel/clock.js';
import { ApiError } from '../kernel/errors.js';
import { JOB_ID_PATTERN } from '../kernel/ids.js';
import { type ListBody, listOf } from '../kernel/page.js';
import type { Services } from '../ports/services.js';
import type { JobRecord } from './job.js';
import { type PublicJob, presentJob } from './job-view.js';

/** The `/v1` job plus the key that produced it, for audit. */
export type DashboardJob = PublicJob & { api_key: { id: string; prefix: string | null } };

/** Any job of the token's organisation, either mode. Absent → 404; another organisation's → 403. */
export async function findOrganizationJob(services: Services, member: Member, id: string): Promise<JobRecord> {
  const job = JOB_ID_PATTERN.test(id) ? await services.jobs.get(id) : null;
  if (!job) throw new ApiError('job_not_found', 'id', `No such job: ${id}.`);
  requireSameOrganization(member, job.org_id, 'job');
  return job;
}

export async function presentDashboardJob(services: Services, job: JobRecord): Promise<DashboardJob> {
  const [view, apiKey] = await Promise.all([presentJob(services, job), auditKeyOf(services, job.api_key_id)]);
  return { ...view, api_key: apiKey };
}

/** One input of a job for the dashboard: what it was, and a signed address while its bytes are kept. */
type PresentedJobInput = z.output<typeof JobInputSchema>;

/**
 * The job's inputs, each signed like a produced file when its bytes are stored. Test-mode
 * multipart inputs are kept only where the sandbox model can return them (docs/internals/uploads.md) and every
 * input goes when retention removes it, so each is looked up first: a URL is never one that 404s.
 */
export async function presentJobInputs(services: Services, job: JobRecord): Promise<ListBody<PresentedJobInput>> {
  const expiresAt = epochSeconds(services.clock) + services.config.signedUrlTtlSeconds;
  const data = await Promise.all(
    job.inputs.map(async (input): Promise<PresentedJobInput> => {
      const kept = (await services.objects.head(input.object_key)) !== null;
      return {
        object: 'job_input',
        index: input.index,
        filename: input.filename,
        content_type: input.content_type,
        size_bytes: input.size_bytes,
        url: kept ? await services.objects.signedGetUrl(input.object_key, services.config.signedUrlTtlSeconds) : null,
        expires_at: kept ? expiresAt : null,
      };
    }),
  );
  return listOf(data);
}
