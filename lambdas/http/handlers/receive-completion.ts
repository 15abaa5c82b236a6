import { epochSeconds } from '../../domain/kernel/clock.js';
import { completeJob, jobForCompletion, type Completion } from '../../domain/jobs/completions.js';
import type { Services } from '../../domain/ports/services.js';
import { ApiError } from '../../domain/kernel/errors.js';
import type { JobRecord } from '../../domain/jobs/job.js';
import { INFERENCE_SIGNATURE_HEADER, SIGNATURE_TOLERANCE_SECONDS, verifySignatureHeader, type SignatureFailure } from '../../domain/kernel/signatures.js';
import { CompletionCallbackSchema, type CompletionCallback } from '../../schemas/completions.js';
import { fileRefKeys, replaceFileRefs, resultSchemas, type SignedFile } from '../../schemas/results/index.js';
import { httpHandler, type HttpHandler } from '../handler.js';
import { parseJsonBody } from '../json-body.js';
import { lambdaEntry } from '../lambda-entry.js';
import { json } from '../response.js';
import { validateParams } from '../validation.js';

const SIGNATURE_MESSAGES: Record<SignatureFailure, string> = {
  missing: `The ${INFERENCE_SIGNATURE_HEADER} header is missing.`,
  malformed: `The ${INFERENCE_SIGNATURE_HEADER} header is malformed: expected t=<unix seconds>,v1=<hex HMAC-SHA256>.`,
  mismatch: `The ${INFERENCE_SIGNATURE_HEADER} does not match the body.`,
  outside_tolerance: `The ${INFERENCE_SIGNATURE_HEADER} timestamp is more than ${SIGNATURE_TOLERANCE_SECONDS} seconds from the server clock.`,
};

/** Stands in for each produced file while the result is checked against the endpoint's public schema. */
const PLACEHOLDER_FILE: SignedFile = { url: 'https://placeholder.invalid/file', expires_at: 0, content_type: 'application/octet-stream', width: null, height: null, size_bytes: 0 };

function toCompletion(job: JobRecord, callback: CompletionCallback): Completion {
  if (callback.status === 'failed') return { status: 'failed', modelVersion: callback.model_version, error: callback.error! };
  const result = callback.result!;
  // the result must be what the endpoint documents, its files given as { file_key } placeholders
  if (job.endpoint !== 'inspections') validateParams(resultSchemas[job.endpoint], replaceFileRefs(result, () => PLACEHOLDER_FILE), 'result');
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
 * Signature over the raw body first (`401 invalid_signature`), then the body, then the job:
 * unknown `404`, still queued `409 job_not_processing`, already settled a `200` no-op.
 */
export function receiveCompletionHandler(services: Services): HttpHandler {
  return httpHandler(services, async (request) => {
    const secret = services.config.inferenceCallbackSecret;
    if (!secret) throw new ApiError('service_unavailable', null, 'No inference callback secret is configured.');
    const failure = verifySignatureHeader(request.headers[INFERENCE_SIGNATURE_HEADER.toLowerCase()], request.body, secret, epochSeconds(services.clock));
    if (failure) throw new ApiError('invalid_signature', INFERENCE_SIGNATURE_HEADER, SIGNATURE_MESSAGES[failure]);
    const callback = parseJsonBody(request, CompletionCallbackSchema);
    const job = await jobForCompletion(services, callback.job_id);
    const settled = job.status === 'processing' ? await completeJob(services, job, toCompletion(job, callback)) : job;
    return json(200, { received: true, job_id: settled.id, status: settled.status });
  });
}

export const handler = lambdaEntry((container) => receiveCompletionHandler(container));
