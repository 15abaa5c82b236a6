import { CATALOGUE, modelVersionOf } from '../domain/catalogue/catalogue.js';
import { type JobRecord, outputObjectKey } from '../domain/jobs/job.js';
import { type Clock, epochSeconds } from '../domain/kernel/clock.js';
import { INFERENCE_SIGNATURE_HEADER, signatureHeader } from '../domain/kernel/signatures.js';
import type { InferencePlane } from '../domain/ports/jobs.js';
import type { Log } from '../domain/ports/services.js';
import type { InferenceCancellation, InferenceSubmission } from '../schemas/inference-plane.js';

export interface HttpInferencePlaneOptions {
  /** where jobs are submitted (`INFERENCE_PLANE_URL`) */
  url: string;
  /** the service's `POST /internal/v1/completions`, passed with every job */
  callbackUrl: string;
  /** the bucket holding the inputs, where the plane writes produced files */
  bucket: string;
  /** the shared secret, read when needed (it may be rotated): submissions carry `X-Inference-Signature` like the callbacks do */
  secret: () => string | null;
  clock: Clock;
  log: Log;
  timeoutMs?: number;
}

/** How long the plane has to answer a submission before the job counts as not accepted. */
export const SUBMIT_TIMEOUT_MS = 10_000;

/** The submission of a live job, as every plane receives it (docs/internals/inference-plane.md); its inputs are hashed by then. */
export function submissionOf(job: JobRecord, target: { bucket: string; callbackUrl: string }): InferenceSubmission {
  return {
    job_id: job.id,
    endpoint: job.endpoint,
    model_version: modelVersionOf(CATALOGUE[job.endpoint]),
    params: job.params,
    inputs: job.inputs.map((input) => {
      if (input.sha256 === null) throw new Error(`input ${input.index} of ${job.id} was not hashed before submission`);
      return {
        index: input.index,
        object_key: input.object_key,
        content_type: input.content_type,
        size_bytes: input.size_bytes,
        sha256: input.sha256,
        filename: input.filename,
      };
    }),
    bucket: target.bucket,
    output_prefix: outputObjectKey(job, ''),
    callback_url: target.callbackUrl,
  };
}

/**
 * The live inference plane on AWS, reached over HTTPS. A job is accepted when the plane
 * answers 2xx; anything else (or no answer) leaves the job queued, so the sweeper offers it
 * again until its queue timeout expires it.
 */
export class HttpInferencePlane implements InferencePlane {
  constructor(private readonly options: HttpInferencePlaneOptions) {}

  async submit(job: JobRecord): Promise<boolean> {
    return this.post(
      this.options.url,
      submissionOf(job, { bucket: this.options.bucket, callbackUrl: this.options.callbackUrl }),
      'inference plane refused a job',
    );
  }

  /** `POST <plane URL>/cancel`, once: the job is already expired, so a plane that misses it only wastes its own work. */
  async cancel(job: JobRecord): Promise<void> {
    const cancellation: InferenceCancellation = { job_id: job.id, reason: 'deadline_exceeded' };
    await this.post(cancelUrlOf(this.options.url), cancellation, 'inference plane refused a cancellation');
  }

  /** A signed JSON POST; true on a 2xx answer. */
  private async post(url: string, payload: { job_id: string }, refusal: string): Promise<boolean> {
    const body = JSON.stringify(payload);
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    const secret = this.options.secret();
    if (secret) headers[INFERENCE_SIGNATURE_HEADER] = signatureHeader(body, secret, epochSeconds(this.options.clock));
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers,
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(this.options.timeoutMs ?? SUBMIT_TIMEOUT_MS),
      });
      await response.body?.cancel();
      if (response.ok) return true;
      this.options.log.warn(refusal, { job_id: payload.job_id, status: response.status });
    } catch (error) {
      this.options.log.warn('inference plane unreachable', { job_id: payload.job_id, error: String(error) });
    }
    return false;
  }
}

/** The plane's cancel operation sits beside its submission URL: `<plane URL>/cancel` (docs/internals/inference-plane.md). */
export function cancelUrlOf(planeUrl: string): string {
  const url = new URL(planeUrl);
  url.pathname = `${url.pathname.replace(/\/$/, '')}/cancel`;
  return url.toString();
}
