import { redactJob } from '../../domain/erasure/redaction.js';
import { findOrganizationJob, presentDashboardJob, presentJobInputs } from '../../domain/jobs/dashboard-jobs.js';
import { presentJobPage } from '../../domain/jobs/job-view.js';
import { ApiError } from '../../domain/kernel/errors.js';
import { implementJwt } from '../implement-jwt.js';
import * as management from '../routes/management.js';

// The organisation's jobs as the dashboard reads them (management surface).

/** `GET /mgmt/v1/jobs`: the page shape of GET /v1/jobs, across every key of the organisation and both modes. */
export const listOrganizationJobs = implementJwt(
  management.listOrganizationJobs,
  async ({ services, member, query }) => {
    const page = await presentJobPage(services, {
      orgId: member.orgId,
      limit: query.limit,
      ...(query.livemode === undefined ? {} : { livemode: query.livemode }),
      ...(query.starting_after ? { startingAfter: query.starting_after } : {}),
      ...(query.status ? { status: query.status } : {}),
      ...(query.endpoint ? { endpoint: query.endpoint } : {}),
      ...(query.top_level ? { topLevelOnly: true } : {}),
      ...(query.batch ? { batchId: query.batch } : {}),
    });
    return { status: 200, body: page };
  },
);

/** `GET /mgmt/v1/jobs/{id}`: the /v1 job plus `api_key: {id, prefix}`, either mode. */
export const getOrganizationJob = implementJwt(management.getOrganizationJob, async ({ services, member, params }) => {
  const job = await findOrganizationJob(services, member, params.id);
  return { status: 200, body: await presentDashboardJob(services, job) };
});

/** `GET /mgmt/v1/jobs/{id}/inputs`: the job's inputs, signed while their bytes are kept. */
export const listOrganizationJobInputs = implementJwt(
  management.listOrganizationJobInputs,
  async ({ services, member, params }) => {
    const job = await findOrganizationJob(services, member, params.id);
    return { status: 200, body: await presentJobInputs(services, job) };
  },
);

/** `POST /mgmt/v1/jobs/{id}/redact`: the dashboard's redaction, for a job of either mode. */
export const redactOrganizationJob = implementJwt(
  management.redactOrganizationJob,
  async ({ services, member, params }) => {
    const outcome = await redactJob(services, await findOrganizationJob(services, member, params.id));
    if ('refused' in outcome) throw new ApiError('job_not_redactable', 'id', outcome.refused);
    return { status: 200, body: outcome };
  },
);
