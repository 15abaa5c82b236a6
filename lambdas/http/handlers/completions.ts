import { deleteLateOutputs } from '../../domain/erasure/redaction.js';
import { type Completion, completeJob, jobForCompletion } from '../../domain/jobs/completions.js';
import type { JobRecord } from '../../domain/jobs/job.js';
import type { CompletionCallback } from '../../schemas/completions.js';
import type { SignedFile } from '../../schemas/results/common.js';
import { fileRefKeys, replaceFileRefs } from '../../schemas/results/file-refs.js';
import { loadResultSchema } from '../../schemas/results/load.js';
import { implement } from '../implement.js';
import * as internal from '../routes/internal.js';
import { validateParams } from '../validation.js';

// The inference plane's signed completion callback.

/** Stands in for each produced file while the result is checked against the endpoint's public schema. */
const PLACEHOLDER_FILE: SignedFile = {
  url: 'https://placeholder.invalid/file',
  expires_at: 0,
  content_type: 'application/octet-stream',
  width: null,
  height: null,
  size_bytes: 0,
};

async function toCompletion(job: JobRecord, callback: CompletionCallback): Promise<Completion> {
  if (callback.status === 'failed')
    return { status: 'failed', modelVersion: callback.model_version, error: callback.error! };
  const result = callback.result!;
  // the result must be what the endpoint documents, its files given as { file_key } placeholders
  if (job.endpoint !== 'inspections')
    validateParams(
      await loadResultSchema(job.endpoint),
      replaceFileRefs(result, () => PLACEHOLDER_FILE),
      'result',
    );
  return {
    status: 'succeeded',
    modelVersion: callback.model_version,
    result,
    fileKeys: fileRefKeys(result),
    ...(callback.billable_units !== undefined ? { billableUnits: callback.billable_units } : {}),
  };
}

/**
 * `POST /internal/v1/completions`: the inference plane reports a live job it accepted.
 * The pipeline checks the signature over the raw body first (`401 invalid_signature`), then the
 * body; then the job: unknown `404`, still queued `409 job_not_processing`, already settled a `200` no-op.
 */
export const receiveCompletion = implement(internal.receiveCompletion, async ({ services, body, log }) => {
  log.job_id = body.job_id;
  const job = await jobForCompletion(services, body.job_id);
  log.org_id = job.org_id;
  const settled = job.status === 'processing' ? await completeJob(services, job, await toCompletion(job, body)) : job;
  if (settled.redacted_at !== undefined) await deleteLateOutputs(services, settled);
  return { status: 200, body: { received: true as const, job_id: settled.id, status: settled.status } };
});
