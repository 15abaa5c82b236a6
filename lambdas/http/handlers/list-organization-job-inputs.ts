import { findOrganizationJob, presentJobInputs } from '../../domain/jobs/dashboard-jobs.js';
import { implementJwt } from '../implement-jwt.js';
import { listOrganizationJobInputs } from '../routes/management.js';

/** `GET /mgmt/v1/jobs/{id}/inputs`: the job's inputs, signed while their bytes are kept. */
export const handler = implementJwt(listOrganizationJobInputs, async ({ services, member, params }) => {
  const job = await findOrganizationJob(services, member, params.id);
  return { status: 200, body: await presentJobInputs(services, job) };
});
