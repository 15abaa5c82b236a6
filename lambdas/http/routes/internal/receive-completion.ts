import { deleteLateOutputs } from '../../../domain/erasure/redaction.js';
import { type Completion, completeJob, jobForCompletion } from '../../../domain/jobs/completions.js';
import type { JobRecord } from '../../../domain/jobs/job.js';
import type { CompletionCallback } from '../../../schemas/completions.js';
import { CompletionAckSchema, CompletionCallbackSchema } from '../../../schemas/completions.js';
import type { SignedFile } from '../../../schemas/results/common.js';
import { fileRefKeys, replaceFileRefs } from '../../../schemas/results/file-refs.js';
import { loadResultSchema } from '../../../schemas/results/load.js';
import { implement } from '../../implement.js';
import { validateParams } from '../../validation.js';
import { defineRoute, JSON_BODY_BYTES } from '../define.js';

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

/** Stands in for each produced file while the result is checked against the endpoint's public schema. */
const PLACEHOLDER_FILE: SignedFile = {
  url: 'https://placeholder.invalid/file',
  expires_at: 0,
  content_type: 'application/octet-stream',
  width: null,
  height: null,
  size_bytes: 0,
};

export const route = defineRoute({
  module: import.meta.url,
  id: 'receive-completion',
  method: 'POST',
  path: '/internal/v1/completions',
  summary: 'The inference plane reports a live job it accepted (X-Inference-Signature); settles it exactly once',
  tag: 'Internal',
  auth: 'signature',
  middleware: [],
  signatureHeader: 'X-Inference-Signature',
  // the pipeline checks the signature over the raw body before the body is parsed
  body: CompletionCallbackSchema,
  responses: {
    200: {
      description: 'acknowledged: the job settled now, or had already settled (a repeat changes nothing)',
      schema: CompletionAckSchema,
    },
  },
  errors: ['job_not_found', 'job_not_processing'],
  // the settlement transaction of a live job; HEAD of the produced files the plane wrote under
  // outputs/ (ListBucket, so a missing file is a 404 and a 400 for the plane, not a 403)
  // deletes what the plane writes for a job already redacted (docs/internals/data-retention.md); the last
  // settlement of a batch's job writes the batch's output file, reading its input file for lines never admitted (docs/internals/batches.md)
  access: {
    table: 'readwrite',
    readObjects: ['outputs', 'uploads'],
    writeObjects: ['outputs'],
    listObjects: true,
    deleteObjects: ['outputs'],
    enqueueWebhooks: true,
  },
  settings: ['inference_callback_secret'],
  timeoutSeconds: 10,
  maxBodyBytes: JSON_BODY_BYTES,
});

/**
 * `POST /internal/v1/completions`: the inference plane reports a live job it accepted.
 * The pipeline checks the signature over the raw body first (`401 invalid_signature`), then the
 * body; then the job: unknown `404`, still queued `409 job_not_processing`, already settled a `200` no-op.
 */
export const handler = implement(route, async ({ services, body, log }) => {
  log.job_id = body.job_id;
  const job = await jobForCompletion(services, body.job_id);
  log.org_id = job.org_id;
  const settled = job.status === 'processing' ? await completeJob(services, job, await toCompletion(job, body)) : job;
  if (settled.redacted_at !== undefined) await deleteLateOutputs(services, settled);
  return { status: 200, body: { received: true as const, job_id: settled.id, status: settled.status } };
});
