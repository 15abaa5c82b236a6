import type { Services } from '../ports/services.js';
import { ApiError } from '../kernel/errors.js';
import { JOB_ID_PATTERN } from '../kernel/ids.js';
import type { JobRecord } from './job.js';
import type { Principal } from '../access/principal.js';

/**
 * A job is visible to keys of its organisation and mode. Another organisation's job is a `403`
 * (docs/jobs-and-credits.md: another organisation's resource is always a 403, and the route
 * lists it); the other mode's job, like an absent one, is not visible to the key: `404`.
 */
export async function findVisibleJob(services: Services, principal: Principal, id: string): Promise<JobRecord> {
  if (!JOB_ID_PATTERN.test(id)) throw new ApiError('job_not_found', 'id', `No such job: ${id}.`);
  const job = await services.jobs.get(id);
  if (job && job.org_id !== principal.orgId) throw new ApiError('scope_not_granted', null, 'This job belongs to another organisation.');
  if (!job || job.livemode !== principal.livemode) throw new ApiError('job_not_found', 'id', `No such job: ${id}.`);
  return job;
}
