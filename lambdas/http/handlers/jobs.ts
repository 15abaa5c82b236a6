import { checkPollingRate } from '../../domain/access/rate-limits.js';
import { CATALOGUE, ENDPOINT_SLUGS } from '../../domain/catalogue/catalogue.js';
import { redactJob as redact } from '../../domain/erasure/redaction.js';
import { queueTimeoutSeconds } from '../../domain/jobs/admission.js';
import type { JobRecord } from '../../domain/jobs/job.js';
import { findVisibleJob, presentJob, presentJobPage } from '../../domain/jobs/job-view.js';
import { cancelJob as cancel } from '../../domain/jobs/processing.js';
import { ApiError } from '../../domain/kernel/errors.js';
import { priceDisplay } from '../../domain/money/credit-value.js';
import { implement } from '../implement.js';
import * as jobs from '../routes/jobs.js';

// The job routes of the inference surface (API keys): read, list, cancel, redact, and the endpoint catalogue.

/** `GET /v1/jobs/{id}` */
export const getJob = implement(jobs.getJob, async ({ services, principal, params }) => {
  const job = await findVisibleJob(services, principal, params.id);
  await checkPollingRate(services, services.rateLimitCounter, job.id);
  return { status: 200, body: await presentJob(services, job) };
});

/** `GET /v1/jobs`: newest first, scoped to the key's organisation and mode. */
export const listJobs = implement(jobs.listJobs, async ({ services, principal, query }) => {
  const page = await presentJobPage(services, {
    orgId: principal.orgId,
    livemode: principal.livemode,
    limit: query.limit,
    ...(query.starting_after ? { startingAfter: query.starting_after } : {}),
    ...(query.status ? { status: query.status } : {}),
    ...(query.endpoint ? { endpoint: query.endpoint } : {}),
    ...(query.batch ? { batchId: query.batch } : {}),
  });
  return { status: 200, body: page };
});

function notCancelableMessage(job: JobRecord): string {
  if (job.parent_job_id)
    return `Job ${job.id} is a stage of inspection ${job.parent_job_id}; a stage cannot be canceled on its own (cancel the inspection while it is queued).`;
  return `Job ${job.id} is ${job.status}; only a queued job can be canceled.`;
}

/** `POST /v1/jobs/{id}/cancel`: only a queued job can be canceled; canceling twice is fine. */
export const cancelJob = implement(jobs.cancelJob, async ({ services, principal, params }) => {
  const job = await findVisibleJob(services, principal, params.id);
  const outcome = await cancel(services, job);
  if (outcome === 'not_cancelable') throw new ApiError('job_not_cancelable', 'id', notCancelableMessage(job));
  return { status: 200, body: await presentJob(services, outcome) };
});

/** `POST /v1/jobs/{id}/redact`: a settled job's files deleted and its result null for good; a repeat is answered alike. */
export const redactJob = implement(jobs.redactJob, async ({ services, principal, params }) => {
  const outcome = await redact(services, await findVisibleJob(services, principal, params.id));
  if ('refused' in outcome) throw new ApiError('job_not_redactable', 'id', outcome.refused);
  return { status: 200, body: outcome };
});

/** `GET /v1/endpoints`: the catalogue, straight from the one endpoint table. */
export const listEndpoints = implement(jobs.listEndpoints, async ({ services }) => {
  const data = ENDPOINT_SLUGS.map((slug) => {
    const e = CATALOGUE[slug];
    return {
      slug: e.slug,
      family: e.family,
      name: e.name,
      availability: e.availability,
      metering: e.metering,
      price: e.price,
      currency: 'usd' as const,
      price_display: priceDisplay(e.price, e.metering),
      input_kind: e.inputKind,
      accepts_wait: e.acceptsWait,
      queue_timeout_seconds: queueTimeoutSeconds(services, e),
      scenarios: [...e.scenarios],
    };
  });
  return { status: 200, body: { object: 'list' as const, data, has_more: false } };
});
