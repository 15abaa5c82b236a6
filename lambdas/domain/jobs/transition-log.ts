import type { Services } from '../ports/services.js';
import type { JobRecord, JobStatus } from './job.js';

/**
 * One log line per job transition (docs/internals/operations.md, "Logs"), carrying the id of the request that admitted
 * the job, so a job's lines join its request's line.
 */
export function logJobTransition(
  services: Services,
  job: Pick<JobRecord, 'id' | 'org_id' | 'endpoint' | 'livemode' | 'request_id'>,
  status: JobStatus,
): void {
  services.log.info('job transition', {
    ...jobLogFields(job),
    endpoint: job.endpoint,
    livemode: job.livemode,
    status,
  });
}

/** The fields that tie a log line to a job: its id, its organisation and the request that admitted it. */
export function jobLogFields(job: Pick<JobRecord, 'id' | 'org_id' | 'request_id'>): {
  request_id?: string;
  org_id: string;
  job_id: string;
} {
  return { ...(job.request_id ? { request_id: job.request_id } : {}), org_id: job.org_id, job_id: job.id };
}
