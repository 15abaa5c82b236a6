import { setTimeout as delay } from 'node:timers/promises';
import { submissionOf } from '../lambdas/adapters/http-inference-plane.js';
import type { JobRecord } from '../lambdas/domain/jobs/job.js';
import { logFailure } from '../lambdas/domain/kernel/failure-log.js';
import type { InferencePlane } from '../lambdas/domain/ports/jobs.js';
import type { Services } from '../lambdas/domain/ports/services.js';
import { deliverCompletion } from '../lambdas/planes/callback-delivery.js';
import type { PlaneModel } from '../lambdas/planes/plane-model.js';

export const COMPLETIONS_PATH = '/internal/v1/completions';

export interface BundledPlaneOptions {
  /** what it computes: the reference plane's declared endpoints or the fixture plane's fixtures (docs/internals/inference-plane.md) */
  model: PlaneModel;
  /** its object store (to read inputs and write produced files), clock (to date signatures) and log */
  services: Pick<Services, 'objects' | 'clock' | 'log'>;
  /** the local server, whose completion route it calls */
  baseUrl: string;
  /** the bucket the job's inputs are in, named in each submission */
  bucket: string;
  /** the callback's shared secret */
  secret: string;
  /** pause between accepting a job and working on it */
  startDelayMs?: number;
}

/**
 * A bundled live inference plane in the local runtime (the reference plane under `npm start`, the
 * fixture plane with `INFERENCE_PLANE=fixture`): it accepts every job it is given, then, off the
 * caller's path, works the submission any plane would receive (docs/internals/inference-plane.md) with the
 * same model code the stack deploys as a Lambda, and reports the outcome over HTTP to the server's
 * own `POST /internal/v1/completions`, signed. So a live job crosses the real callback route,
 * signature check and settlement.
 */
export class BundledInferencePlane implements InferencePlane {
  private readonly inFlight = new Set<Promise<void>>();
  private readonly stopping = new AbortController();
  /** per job: aborted by `cancel` (the job's deadline passed), so its callback is never sent */
  private readonly working = new Map<string, AbortController>();
  /** jobs told to stop, newest last (tests read it) */
  readonly canceled: string[] = [];

  constructor(private readonly options: BundledPlaneOptions) {}

  async submit(job: JobRecord): Promise<boolean> {
    if (this.stopping.signal.aborted) return false;
    const submission = submissionOf(job, {
      bucket: this.options.bucket,
      callbackUrl: `${this.options.baseUrl}${COMPLETIONS_PATH}`,
    });
    const cancel = new AbortController();
    this.working.set(job.id, cancel);
    const signal = AbortSignal.any([this.stopping.signal, cancel.signal]);
    const task: Promise<void> = this.work(submission, signal)
      .catch((error: unknown) => {
        if (!signal.aborted)
          logFailure(this.options.services.log, 'reference inference plane failed a job', error, { job_id: job.id });
      })
      .finally(() => {
        this.inFlight.delete(task);
        if (this.working.get(job.id) === cancel) this.working.delete(job.id);
      });
    this.inFlight.add(task);
    return true;
  }

  /** The job's deadline passed: its work is abandoned and no callback is sent (docs/internals/inference-plane.md, "Cancellation"). */
  async cancel(job: JobRecord): Promise<void> {
    this.canceled.push(job.id);
    this.working.get(job.id)?.abort();
  }

  /** Abandons pending work (the job stays processing, as with a plane that went away) and waits for it to wind down. */
  async stop(): Promise<void> {
    this.stopping.abort();
    await Promise.allSettled([...this.inFlight]);
  }

  private async work(submission: ReturnType<typeof submissionOf>, signal: AbortSignal): Promise<void> {
    const { services } = this.options;
    await delay(this.options.startDelayMs ?? 50, undefined, { signal });
    const completion = await this.options.model(submission, services.objects, services.log);
    signal.throwIfAborted();
    await deliverCompletion(submission.callback_url, completion, {
      secret: this.options.secret,
      clock: services.clock,
      signal,
    });
  }
}
