import { findOrganizationJob, presentDashboardJob } from '../../../domain/jobs/dashboard-jobs.js';
import { DashboardJobSchema } from '../../../schemas/management.js';
import { JobIdParams } from '../../../schemas/records.js';
import { implementJwt } from '../../implement-jwt.js';
import { managementRoute } from '../define.js';

export const route = managementRoute({
  module: import.meta.url,
  id: 'get-organization-job',
  method: 'GET',
  path: '/mgmt/v1/jobs/{id}',
  minimumRole: 'member',
  summary: 'A job as GET /v1/jobs/{id} shows it, plus the API key that created it',
  params: JobIdParams,
  notFound: 'job_not_found',
  responses: { 200: { description: 'the job and its API key', schema: DashboardJobSchema } },
  errors: [],
  access: { table: 'read', readObjects: ['outputs'] },
});

/** `GET /mgmt/v1/jobs/{id}`: the /v1 job plus `api_key: {id, prefix}`, either mode. */
export const handler = implementJwt(route, async ({ services, member, params }) => {
  const job = await findOrganizationJob(services, member, params.id);
  return { status: 200, body: await presentDashboardJob(services, job) };
});
