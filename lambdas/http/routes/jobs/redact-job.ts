import { redactJob as redact } from '../../../domain/erasure/redaction.js';
import { findVisibleJob } from '../../../domain/jobs/job-view.js';
import { ApiError } from '../../../domain/kernel/errors.js';
import { JobIdParams, RedactionSchema } from '../../../schemas/records.js';
import { implement } from '../../implement.js';
import { defineRoute } from '../define.js';
import { REDACTION_ACCESS } from './data-access.js';

export const route = defineRoute({
  module: import.meta.url,
  id: 'redact-job',
  method: 'POST',
  path: '/v1/jobs/{id}/redact',
  summary: "Delete a settled job's input and output files and set its result to null for good (docs/data-retention.md)",
  tag: 'Jobs',
  auth: 'api_key',
  middleware: ['read-rate-limit', 'idempotency', 'strict-input'],
  params: JobIdParams,
  notFound: 'job_not_found',
  responses: {
    200: {
      description: 'the redaction; a repeated call answers the first time and files_deleted 0',
      schema: RedactionSchema,
    },
  },
  errors: ['job_not_redactable', 'scope_not_granted'],
  access: REDACTION_ACCESS,
  // an inspection lists and deletes the folders of its eight stage jobs too
  timeoutSeconds: 28,
  maxBodyBytes: 0,
});

/** `POST /v1/jobs/{id}/redact`: a settled job's files deleted and its result null for good; a repeat is answered alike. */
export const handler = implement(route, async ({ services, principal, params }) => {
  const outcome = await redact(services, await findVisibleJob(services, principal, params.id));
  if ('refused' in outcome) throw new ApiError('job_not_redactable', 'id', outcome.refused);
  return { status: 200, body: outcome };
});
