import { redactJob } from '../../../domain/erasure/redaction.js';
import { findOrganizationJob } from '../../../domain/jobs/dashboard-jobs.js';
import { ApiError } from '../../../domain/kernel/errors.js';
import { JobIdParams, RedactionSchema } from '../../../schemas/records.js';
import { implementJwt } from '../../implement-jwt.js';
import { managementRoute } from '../define.js';
import { REDACTION_ACCESS } from '../jobs/data-access.js';

export const route = managementRoute({
  module: import.meta.url,
  id: 'redact-organization-job',
  method: 'POST',
  path: '/mgmt/v1/jobs/{id}/redact',
  minimumRole: 'admin',
  summary:
    'What POST /v1/jobs/{id}/redact does, for any job of the organisation in either mode: its files deleted and its result null for good',
  params: JobIdParams,
  notFound: 'job_not_found',
  responses: {
    200: {
      description: 'the redaction; a repeated call answers the first time and files_deleted 0',
      schema: RedactionSchema,
    },
  },
  errors: ['job_not_redactable'],
  access: REDACTION_ACCESS,
  timeoutSeconds: 28,
});

/** `POST /mgmt/v1/jobs/{id}/redact`: the dashboard's redaction, for a job of either mode. */
export const handler = implementJwt(route, async ({ services, member, params }) => {
  const outcome = await redactJob(services, await findOrganizationJob(services, member, params.id));
  if ('refused' in outcome) throw new ApiError('job_not_redactable', 'id', outcome.refused);
  return { status: 200, body: outcome };
});
