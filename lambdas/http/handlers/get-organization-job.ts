import { findOrganizationJob, presentDashboardJob } from '../../domain/jobs/dashboard-jobs.js';
import { implementJwt } from '../implement-jwt.js';
import { getOrganizationJob } from '../routes/management.js';

/** `GET /mgmt/v1/jobs/{id}`: the /v1 job plus `api_key: {id, prefix}`, either mode. */
export const handler = implementJwt(getOrganizationJob, async ({ services, member, params }) => {
  const job = await findOrganizationJob(services, member, params.id);
  return { status: 200, body: await presentDashboardJob(services, job) };
});
