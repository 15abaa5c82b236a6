import type { ObjectStore } from '../domain/ports/jobs.js';
import type { Log } from '../domain/ports/services.js';
import type { CompletionCallback } from '../schemas/completions.js';
import type { InferenceSubmission } from '../schemas/inference-plane.js';

/**
 * What a bundled plane does with one submission: reads its inputs, writes what it produces under
 * the submission's `output_prefix`, and returns the callback that reports it. It reads nothing but
 * the submission and the bucket, like any plane (docs/internals/inference-plane.md).
 */
export type PlaneModel = (
  submission: InferenceSubmission,
  objects: Pick<ObjectStore, 'get' | 'put' | 'copy'>,
  log: Log,
) => Promise<CompletionCallback>;

/** A failed callback for a job the model could not work: its error is logged, never echoed. */
export function modelFailure(submission: InferenceSubmission, modelVersion: string): CompletionCallback {
  return {
    job_id: submission.job_id,
    model_version: modelVersion,
    status: 'failed',
    error: { code: 'model_inference_failed', message: 'The model failed to produce a result.' },
  };
}
