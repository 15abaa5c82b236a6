import { createHash } from 'node:crypto';
import { CATALOGUE, type EndpointSlug, fixtureModelVersionOf } from '../domain/catalogue/catalogue.js';
import { INSPECTION_STAGES } from '../domain/catalogue/inspection-stages.js';
import { initialStages } from '../domain/inspections/plan.js';
import { aggregateResult, failedStageError, stageFromChild } from '../domain/inspections/stage-results.js';
import type { JobError, JobRecord, StageRecord } from '../domain/jobs/job.js';
import { epochSeconds } from '../domain/kernel/clock.js';
import { timeOrderedId } from '../domain/kernel/ids.js';
import type { Services } from '../domain/ports/services.js';
import type { WebhookEventType } from '../domain/webhooks/records.js';
import { exampleParams } from '../schemas/params/examples.js';
import { loadParamsSchema } from '../schemas/params/load.js';
import { runSandboxModel, storeProducedFiles } from './backend.js';

/** How a synthetic job fails. */
const SAMPLE_FAILURE: JobError = {
  type: 'processing_error',
  code: 'model_inference_failed',
  message: 'The model could not process the input (a synthetic test event).',
};

/** The endpoint's example parameters (`params/examples.ts`) as its schema fills them in, defaults included. */
async function sampleParams(slug: EndpointSlug): Promise<Record<string, unknown>> {
  if (slug === 'inspections') return {};
  return (await loadParamsSchema(slug)).parse(exampleParams[slug]) as Record<string, unknown>;
}

function syntheticJob(
  services: Services,
  orgId: string,
  slug: EndpointSlug,
  params: Record<string, unknown>,
): JobRecord {
  const now = epochSeconds(services.clock);
  const id = timeOrderedId('job', services.clock.nowMs());
  const endpoint = CATALOGUE[slug];
  return {
    id,
    org_id: orgId,
    api_key_id: 'key_webhook_test',
    livemode: false,
    endpoint: slug,
    status: 'processing',
    created: now,
    started_at: now,
    completed_at: null,
    model_version: fixtureModelVersionOf(endpoint),
    credits: { reserved: 0, charged: null },
    result: null,
    error: null,
    test_scenario: null,
    params,
    inputs: [
      {
        index: 0,
        filename: 'sample.jpg',
        content_type: 'image/jpeg',
        size_bytes: 2048,
        sha256: createHash('sha256').update(`webhook-test:${slug}`).digest('hex'),
        object_key: `webhook-tests/${id}/sample`,
      },
    ],
    files: {},
    billable_units: null,
    queue_deadline: now,
    redrive_at: now,
    simulated_delay_seconds: 0,
  };
}

/** A settled job of `slug` as the sandbox model makes it: succeeded with the sandbox model's result, or failed. */
async function settledSample(
  services: Services,
  orgId: string,
  slug: EndpointSlug,
  outcome: 'succeeded' | 'failed',
): Promise<JobRecord> {
  const job = syntheticJob(services, orgId, slug, await sampleParams(slug));
  const now = epochSeconds(services.clock);
  if (outcome === 'failed') {
    return {
      ...job,
      status: 'failed',
      completed_at: now,
      credits: { reserved: 0, charged: 0 },
      error: SAMPLE_FAILURE,
    };
  }
  const output = await runSandboxModel(job);
  const files = output ? await storeProducedFiles(services.objects, job, output.files) : {};
  return {
    ...job,
    status: 'succeeded',
    completed_at: now,
    credits: { reserved: 0, charged: 0 },
    result: output?.result ?? {},
    files,
    billable_units: output?.billableUnits ?? 1,
  };
}

/** A synthetic inspection whose stages up to `last` (0-based) succeeded, each run by its endpoint's sandbox model; settled when that is the eighth. */
async function inspectionThrough(services: Services, orgId: string, last: number): Promise<JobRecord> {
  const inspection = syntheticJob(services, orgId, 'inspections', await sampleParams('inspections'));
  const stages = initialStages([]);
  let files: JobRecord['files'] = {};
  for (let i = 0; i <= last; i++) {
    const settled = stageFromChild(stages[i]!, await settledSample(services, orgId, stages[i]!.endpoint, 'succeeded'));
    stages[i] = { ...settled.stage, recorded: true };
    files = { ...files, ...settled.files };
  }
  const running: JobRecord = { ...inspection, stages, files, stages_recorded: last + 1, stages_started: last + 1 };
  if (last < stages.length - 1) return running;
  return {
    ...running,
    status: 'succeeded',
    completed_at: epochSeconds(services.clock),
    credits: { reserved: 0, charged: 0 },
    result: aggregateResult(stages),
    billable_units: 1,
  };
}

/** A synthetic inspection failed as a real one fails: its first stage failed, the others canceled, nothing charged. */
async function failedInspection(services: Services, orgId: string): Promise<JobRecord> {
  const inspection = syntheticJob(services, orgId, 'inspections', await sampleParams('inspections'));
  const now = epochSeconds(services.clock);
  const [first, ...rest] = initialStages([]);
  const failed: StageRecord = {
    ...stageFromChild(first!, await settledSample(services, orgId, first!.endpoint, 'failed')).stage,
    recorded: true,
  };
  const stages = [failed, ...rest.map((stage): StageRecord => ({ ...stage, status: 'canceled', completed_at: now }))];
  return {
    ...inspection,
    stages,
    stages_recorded: 1,
    stages_started: 1,
    status: 'failed',
    completed_at: now,
    credits: { reserved: 0, charged: 0 },
    error: failedStageError(failed, SAMPLE_FAILURE),
  };
}

/**
 * What `POST /mgmt/v1/webhook-endpoints/{id}/test` sends: a synthetic job (never stored, never
 * billed) built by the sandbox model of `slug`; for `inspections`, an inspection whose eight
 * stages ran on their sandbox models (or whose first stage failed). For `inspection.stage_completed`, an
 * inspection whose stage running `slug` (or its first stage) just settled, every stage before it
 * settled too: `processing` for every stage but the last, and for the last the settled inspection
 * with its result, as the real last stage event carries it (docs/internals/webhooks.md).
 */
export async function testEventSubject(
  services: Services,
  owner: { orgId: string; livemode: boolean },
  type: WebhookEventType,
  slug: EndpointSlug,
): Promise<{ job: JobRecord; stage: StageRecord | null }> {
  const subject = await sampleSubject(services, owner.orgId, type, slug);
  // the endpoint's mode: a live endpoint is sent a live job, as it only ever receives those
  return { ...subject, job: { ...subject.job, livemode: owner.livemode } };
}

async function sampleSubject(
  services: Services,
  orgId: string,
  type: WebhookEventType,
  slug: EndpointSlug,
): Promise<{ job: JobRecord; stage: StageRecord | null }> {
  const outcome = type === 'job.failed' ? 'failed' : 'succeeded';
  if (type !== 'inspection.stage_completed') {
    if (slug !== 'inspections') return { job: await settledSample(services, orgId, slug, outcome), stage: null };
    return {
      job:
        outcome === 'failed'
          ? await failedInspection(services, orgId)
          : await inspectionThrough(services, orgId, INSPECTION_STAGES.length - 1),
      stage: null,
    };
  }
  const index = Math.max(
    0,
    INSPECTION_STAGES.findIndex((stage) => stage.endpoint === slug),
  );
  const job = await inspectionThrough(services, orgId, index);
  return { job, stage: job.stages![index]! };
}
