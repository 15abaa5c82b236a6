import { setTimeout as delay } from 'node:timers/promises';
import { CATALOGUE, modelVersionOf } from '../domain/catalogue/catalogue.js';
import { epochSeconds } from '../domain/kernel/clock.js';
import type { Services } from '../domain/ports/services.js';
import { logFailure } from '../domain/kernel/failure-log.js';
import type { JobRecord } from '../domain/jobs/job.js';
import type { InferencePlane } from '../domain/ports/stores.js';
import { INFERENCE_SIGNATURE_HEADER, signatureHeader } from '../domain/kernel/signatures.js';
import { runFixture, storeProducedFiles } from '../fixtures/backend.js';

export const COMPLETIONS_PATH = '/internal/v1/completions';

/** Answers worth trying again: the hand-over not recorded yet (409), a server fault, no answer. */
const RETRYABLE = new Set([409, 500, 502, 503, 504]);
const MAX_ATTEMPTS = 8;

export interface ReferencePlaneOptions {
  /** its object store (to write produced files), clock (to date signatures) and log */
  services: Pick<Services, 'objects' | 'clock' | 'log'>;
  /** the local server, whose completion route it calls */
  baseUrl: string;
  /** the callback's shared secret */
  secret: string;
  /** pause between accepting a job and working on it */
  startDelayMs?: number;
}

/**
 * The local runtime's live inference plane: it accepts every job, then, off the caller's
 * path, runs the endpoint's deterministic fixture exactly as the test backend does (files
 * stored under `outputs/<org>/<job>/<file_key>`) and reports the outcome over HTTP to the
 * server's own `POST /internal/v1/completions`, signed like a real plane signs. So a live job
 * crosses the real callback route, signature check and settlement.
 */
export class ReferenceInferencePlane implements InferencePlane {
  private readonly inFlight = new Set<Promise<void>>();
  private readonly stopping = new AbortController();

  constructor(private readonly options: ReferencePlaneOptions) {}

  async submit(job: JobRecord): Promise<boolean> {
    if (this.stopping.signal.aborted) return false;
    try {
      const task: Promise<void> = this.work(job)
        .catch((error: unknown) => {
          if (!this.stopping.signal.aborted) logFailure(this.options.services.log, 'reference inference plane failed a job', error, { job_id: job.id });
        })
        .finally(() => this.inFlight.delete(task));
      this.inFlight.add(task);
      return true;
    } catch {
      return false;
    }
  }

  /** Abandons pending work (the job stays processing, as with a plane that went away) and waits for it to wind down. */
  async stop(): Promise<void> {
    this.stopping.abort();
    await Promise.allSettled([...this.inFlight]);
  }

  private async work(job: JobRecord): Promise<void> {
    await delay(this.options.startDelayMs ?? 50, undefined, { signal: this.stopping.signal });
    const body = JSON.stringify(await this.outcome(job));
    for (let attempt = 1; ; attempt += 1) {
      const status = await this.deliver(body).catch(() => 0);
      if (status >= 200 && status < 300) return;
      if ((status !== 0 && !RETRYABLE.has(status)) || attempt >= MAX_ATTEMPTS) throw new Error(`completion callback answered ${status || 'nothing'} after ${attempt} attempt(s)`);
      await delay(Math.min(100 * 2 ** attempt, 2000), undefined, { signal: this.stopping.signal });
    }
  }

  private async outcome(job: JobRecord): Promise<Record<string, unknown>> {
    const base = { job_id: job.id, model_version: modelVersionOf(CATALOGUE[job.endpoint]) };
    try {
      const output = await runFixture(job);
      if (!output) return { ...base, status: 'failed', error: { code: 'model_inference_failed', message: `No model serves ${job.endpoint}.` } };
      await storeProducedFiles(this.options.services.objects, job, output.files);
      return { ...base, status: 'succeeded', result: output.result, billable_units: output.billableUnits };
    } catch (error) {
      logFailure(this.options.services.log, 'reference model failed', error, { job_id: job.id });
      return { ...base, status: 'failed', error: { code: 'model_inference_failed', message: 'The model failed to produce a result.' } };
    }
  }

  /** One signed POST, dated now; resolves to the HTTP status. */
  private async deliver(body: string): Promise<number> {
    const response = await fetch(`${this.options.baseUrl}${COMPLETIONS_PATH}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', [INFERENCE_SIGNATURE_HEADER]: signatureHeader(body, this.options.secret, epochSeconds(this.options.services.clock)) },
      body,
      signal: this.stopping.signal,
    });
    await response.body?.cancel();
    return response.status;
  }
}
