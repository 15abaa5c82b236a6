import { findOrganizationJob, presentJobInputs } from '../../../domain/jobs/dashboard-jobs.js';
import { JobInputListSchema } from '../../../schemas/management.js';
import { JobIdParams } from '../../../schemas/records.js';
import { implementJwt } from '../../implement-jwt.js';
import { managementRoute } from '../define.js';

export const route = managementRoute({
  module: import.meta.url,
  id: 'list-organization-job-inputs',
  method: 'GET',
  path: '/mgmt/v1/jobs/{id}/inputs',
  minimumRole: 'member',
  summary:
    "A job's input files, each with a short-lived signed download URL while its bytes are kept (the dashboard draws results on them)",
  params: JobIdParams,
  notFound: 'job_not_found',
  responses: { 200: { description: 'the inputs, in request order', schema: JobInputListSchema } },
  errors: [],
  // multipart inputs are under inputs/, uploaded ones under uploads/; ListBucket so a missing object is a 404, not a 403
  access: { table: 'read', readObjects: ['inputs', 'uploads'], listObjects: true },
});

/** `GET /mgmt/v1/jobs/{id}/inputs`: the job's inputs, signed while their bytes are kept. */
export const handler = implementJwt(route, async ({ services, member, params }) => {
  const job = await findOrganizationJob(services, member, params.id);
  return { status: 200, body: await presentJobInputs(services, job) };
});
