import { setTimeout as delay } from 'node:timers/promises';
import { type Clock, epochSeconds } from '../domain/kernel/clock.js';
import { INFERENCE_SIGNATURE_HEADER, signatureHeader } from '../domain/kernel/signatures.js';
import type { ObjectStore } from '../domain/ports/jobs.js';
import type { Log } from '../domain/ports/services.js';
import type { CompletionCallback } from '../schemas/completions.js';
import { type InferenceSubmission, RETRIED_CALLBACK_STATUSES } from '../schemas/inference-plane.js';
import { runSandboxModel, storeFiles } from './backend.js';

/** Attempts at a callback, and the backoff between them: 0.2 s, doubling, at most 2 s. */
export const CALLBACK_ATTEMPTS = 8;
const backoffMs = (attempt: number) => Math.min(100 * 2 ** attempt, 2000);

/**
 * The reference inference plane's work on one submission: the endpoint's deterministic sandbox model
 * (the test backend's), its files written under the submission's `output_prefix`, and the
 * callback body that reports it. It reads nothing but the submission, like any plane.
 */
export async function completionOf(
  submission: InferenceSubmission,
  objects: Pick<ObjectStore, 'put' | 'copy'>,
  log: Log,
): Promise<CompletionCallback> {
  const base = { job_id: submission.job_id, model_version: submission.model_version };
  try {
    const output = await runSandboxModel({
      id: submission.job_id,
      endpoint: submission.endpoint,
      params: submission.params,
      inputs: submission.inputs,
    });
    if (!output)
      return {
        ...base,
        status: 'failed',
        error: { code: 'model_inference_failed', message: `No model serves ${submission.endpoint}.` },
      };
    await storeFiles(
      objects,
      { inputs: submission.inputs, outputKey: (fileKey) => `${submission.output_prefix}${fileKey}` },
      output.files,
    );
    return { ...base, status: 'succeeded', result: output.result, billable_units: output.billableUnits };
  } catch (error) {
    log.error('reference model failed', { job_id: submission.job_id, error: String(error) });
    return {
      ...base,
      status: 'failed',
      error: { code: 'model_inference_failed', message: 'The model failed to produce a result.' },
    };
  }
}

export interface DeliveryOptions {
  secret: string;
  clock: Clock;
  signal?: AbortSignal;
  maxAttempts?: number;
}

/**
 * POSTs the callback to `callbackUrl`, signed and dated at each attempt, until it is recorded
 * (2xx): a 409 (the service has not recorded the hand-over yet), 429, 5xx or no answer is tried
 * again with backoff (`CALLBACK_ATTEMPTS` in all); anything else, or running out of attempts, throws.
 */
export async function deliverCompletion(
  callbackUrl: string,
  completion: CompletionCallback,
  options: DeliveryOptions,
): Promise<void> {
  const body = JSON.stringify(completion);
  const maxAttempts = options.maxAttempts ?? CALLBACK_ATTEMPTS;
  for (let attempt = 1; ; attempt += 1) {
    const status = await fetch(callbackUrl, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        [INFERENCE_SIGNATURE_HEADER]: signatureHeader(body, options.secret, epochSeconds(options.clock)),
      },
      body,
      redirect: 'manual',
      ...(options.signal ? { signal: options.signal } : {}),
    }).then(
      async (response) => {
        await response.body?.cancel();
        return response.status;
      },
      () => 0,
    );
    if (status >= 200 && status < 300) return;
    // no answer at all (0) is tried again like a server fault
    if ((status !== 0 && !RETRIED_CALLBACK_STATUSES.includes(status)) || attempt >= maxAttempts)
      throw new Error(`completion callback answered ${status || 'nothing'} after ${attempt} attempt(s)`);
    await delay(backoffMs(attempt), undefined, options.signal ? { signal: options.signal } : {});
  }
}
