import { auditKeyOf } from '../access/api-key-admin.js';
import type { Services } from '../ports/services.js';
import { ApiError } from '../kernel/errors.js';
import { JOB_ID_PATTERN } from '../kernel/ids.js';
import type { JobRecord } from './job.js';
import { presentJob, type PublicJob } from './job-view.js';
import { requireSameOrganization } from '../access/members.js';
import type { Member } from '../access/member.js';

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
