import { CATALOGUE } from '../catalogue/catalogue.js';
import { type InspectionStageName, stageDefinition } from '../catalogue/inspection-stages.js';
import { newJobId, queueTimeoutSeconds } from '../jobs/admission.js';
import { isTerminal, type JobError, type JobRecord, type ProducedFile, type StageRecord } from '../jobs/job.js';
import { cancelQueuedJob, settleJob } from '../jobs/settlement.js';
import { logJobTransition } from '../jobs/transition-log.js';
import { epochSeconds } from '../kernel/clock.js';
import { epochSecondsOfId } from '../kernel/ids.js';
import type { Services } from '../ports/services.js';
import { TransactionRefused, type WriteOp } from '../ports/transactions.js';
import { answerStageTask } from './child-settlement.js';
import { stageInputs } from './plan.js';
import { NOTHING_TO_PRICE, stageParams, stageScenario } from './stage-params.js';
import { recordStage } from './stage-recording.js';
import { aggregateResult, failedStageError, stageFromChild } from './stage-results.js';

/** How a failed task reached the catch: Step Functions' `{ Error, Cause }`. */
export interface TaskFailureInfo {
  Error?: string;
  Cause?: string;
}

/** One call of the stage worker, as the state machine's lambda:invoke tasks send it. */
export type StageAction =
  | { action: 'begin'; inspection_id: string }
  | { action: 'start_stage'; inspection_id: string; stage: InspectionStageName; task_token: string }
  | { action: 'record_stage'; inspection_id: string; stage: InspectionStageName }
  | { action: 'skip_stage'; inspection_id: string; stage: InspectionStageName }
  | { action: 'finalize'; inspection_id: string }
  | { action: 'cancel_remaining'; inspection_id: string; failure?: TaskFailureInfo | undefined }
  | { action: 'fail_inspection'; inspection_id: string; failure?: TaskFailureInfo | undefined };

/** Thrown to fail a task: the state machine catches it and cancels the remaining stages. */
export class PipelineError extends Error {
  override readonly name = 'PipelineError';
}

async function runningInspection(services: Services, id: string): Promise<JobRecord | null> {
  const job = await services.jobs.get(id);
  return job && job.endpoint === 'inspections' && job.status === 'processing' && job.stages ? job : null;
}

function stageOf(inspection: JobRecord, name: InspectionStageName): StageRecord {
  return inspection.stages![stageDefinition(name).stage - 1]!;
}

/** `begin`: which stages the run skips; a run whose inspection is no longer processing does nothing. */
async function begin(services: Services, id: string): Promise<{ proceed: boolean; exclude: InspectionStageName[] }> {
  const inspection = await runningInspection(services, id);
  if (!inspection) return { proceed: false, exclude: [] };
  return { proceed: true, exclude: inspection.stages!.filter((stage) => stage.skipped).map((stage) => stage.name) };
}

function childJob(
  services: Services,
  inspection: JobRecord,
  name: InspectionStageName,
  params: Record<string, unknown>,
  token: string,
): JobRecord {
  const { endpoint: slug } = stageDefinition(name);
  const id = newJobId(services);
  const now = epochSecondsOfId(id);
  const scenario = inspection.livemode ? null : stageScenario(inspection.test_scenario, name);
  const delay = scenario === 'slow' ? services.config.slowScenarioSeconds : 0;
  return {
    id,
    org_id: inspection.org_id,
    api_key_id: inspection.api_key_id,
    livemode: inspection.livemode,
    endpoint: slug,
    status: 'queued',
    created: now,
    started_at: null,
    completed_at: null,
    model_version: null,
    credits: { reserved: 0, charged: null },
    result: null,
    error: null,
    test_scenario: scenario,
    params,
    inputs: stageInputs(inspection.inputs, name),
    files: {},
    billable_units: null,
    queue_deadline: now + queueTimeoutSeconds(services, CATALOGUE[slug]),
    redrive_at: now + delay + services.config.redriveAfterSeconds,
    simulated_delay_seconds: delay,
    parent_job_id: inspection.id,
    stage_name: name,
    task_token: token,
    // a stage job's log lines join the request that admitted its inspection
    ...(inspection.request_id ? { request_id: inspection.request_id } : {}),
  };
}

/**
 * `start_stage`: admits the stage's child job (reserved 0, carrying the task token and the parent
 * id) and marks the stage started, in one transaction; the child's settlement answers the token.
 * Idempotent: a stage already recorded answers at once (a resumed run), a stage already started
 * re-attaches the new token to its child, or answers at once if the child has settled meanwhile.
 */
async function startStage(
  services: Services,
  id: string,
  name: InspectionStageName,
  token: string,
  retried = false,
): Promise<{ job_id: string }> {
  const inspection = await runningInspection(services, id);
  if (!inspection) throw new PipelineError(`inspection ${id} is not processing`);
  const stage = stageOf(inspection, name);
  if (stage.recorded) {
    if (!stage.job_id || stage.status !== 'succeeded')
      throw new PipelineError(`stage ${name} is recorded as ${stage.status}`);
    await services.orchestrator.sendTaskSuccess(token, { job_id: stage.job_id, status: stage.status });
    return { job_id: stage.job_id };
  }
  if (stage.job_id) return reattach(services, stage.job_id, token);

  const index = stage.stage - 1;
  const params = stageParams(name, inspection.stages!);
  const child = childJob(services, inspection, name, params ?? { damages: [] }, token);
  // queued like its child: `started_at` stays null until the child leaves the queue (docs/internals/inspections.md, "stages[]": a stage in flight follows its child job)
  const started: StageRecord = { ...stage, status: 'queued', started_at: null, job_id: child.id };
  const ops: WriteOp[] = [
    { kind: 'createJob', job: child },
    {
      kind: 'updateJob',
      jobId: inspection.id,
      expectStatus: ['processing'],
      expectFields: { stages_started: index, stages_recorded: index },
      set: { stages_started: index + 1 },
      stage: { record: started, files: {} },
      leavesQueue: false,
    },
  ];
  try {
    await services.uow.commit(ops);
  } catch (error) {
    // a concurrent start (a retried invocation) won: attach this token to its child instead
    if (error instanceof TransactionRefused && error.refusedOps.includes('updateJob') && !retried)
      return startStage(services, id, name, token, true);
    throw error;
  }
  logJobTransition(services, child, 'queued');
  if (params === null && child.test_scenario !== 'model_error') {
    // nothing to price: the stage's job settles at once with the zero estimate, no model call
    const now = epochSeconds(services.clock);
    const picked = await services.jobs.markProcessing(
      child.id,
      now,
      `${CATALOGUE[child.endpoint].model}@${CATALOGUE[child.endpoint].modelReleaseDate}`,
      now + services.config.redriveAfterSeconds,
    );
    if (picked) {
      logJobTransition(services, picked, 'processing');
      await settleJob(services, picked, { status: 'succeeded', result: NOTHING_TO_PRICE, files: {}, billableUnits: 1 });
    }
  }
  // its id reaches the work queue through the table's stream, as every new job's does (one already settled is skipped there)
  return { job_id: child.id };
}

async function reattach(services: Services, childId: string, token: string): Promise<{ job_id: string }> {
  const child = await services.jobs.get(childId);
  if (!child) throw new PipelineError(`stage job ${childId} is missing`);
  if (!isTerminal(child.status)) {
    try {
      await services.uow.commit([
        {
          kind: 'updateJob',
          jobId: child.id,
          expectStatus: ['queued', 'processing'],
          set: { task_token: token },
          leavesQueue: false,
        },
      ]);
      return { job_id: child.id };
    } catch (error) {
      if (!(error instanceof TransactionRefused)) throw error;
    }
  }
  // settled before or while the token was being attached: answer now
  const settled = (await services.jobs.get(childId)) ?? child;
  await answerStageTask(services, token, settled);
  return { job_id: child.id };
}

/** `record_stage`: the stage takes its child's final state, in the one recording transaction. */
async function recordFromChild(
  services: Services,
  id: string,
  name: InspectionStageName,
): Promise<{ recorded: boolean }> {
  const inspection = await runningInspection(services, id);
  if (!inspection) return { recorded: false };
  const stage = stageOf(inspection, name);
  if (stage.recorded) return { recorded: false };
  if (!stage.job_id) throw new PipelineError(`stage ${name} has no job to record`);
  const child = await services.jobs.get(stage.job_id);
  if (!child || !isTerminal(child.status)) throw new PipelineError(`stage job ${stage.job_id} has not settled`);
  const { stage: settled, files } = stageFromChild(stage, child);
  return { recorded: (await recordStage(services, inspection, settled, files)) !== null };
}

/** `skip_stage`: an excluded stage is recorded `canceled`, `skipped`, without a job (and still announced). */
async function skipStage(services: Services, id: string, name: InspectionStageName): Promise<{ recorded: boolean }> {
  const inspection = await runningInspection(services, id);
  if (!inspection) return { recorded: false };
  const stage = stageOf(inspection, name);
  if (stage.recorded) return { recorded: false };
  const skipped: StageRecord = {
    ...stage,
    status: 'canceled',
    skipped: true,
    job_id: null,
    completed_at: epochSeconds(services.clock),
  };
  return { recorded: (await recordStage(services, inspection, skipped)) !== null };
}

/** `finalize`: every stage recorded and none failed: the inspection succeeds and is charged its blended price, once. */
async function finalize(services: Services, id: string): Promise<{ settled: boolean }> {
  const inspection = await runningInspection(services, id);
  if (!inspection) return { settled: false };
  const stages = inspection.stages!;
  if (stages.some((stage) => !stage.recorded)) throw new PipelineError('not every stage is recorded');
  if (stages.some((stage) => stage.status !== 'succeeded' && !stage.skipped))
    throw new PipelineError('a stage did not succeed');
  // per_inspection: the charge is the reservation, i.e. the blended price fixed at admission
  const settled = await settleJob(services, inspection, {
    status: 'succeeded',
    result: aggregateResult(stages),
    files: inspection.files,
    billableUnits: 1,
  });
  return { settled: settled !== null };
}

const STAGE_TIMED_OUT: JobError = {
  type: 'processing_error',
  code: 'upstream_timeout',
  message: 'The stage did not finish within its time limit.',
};

/**
 * `cancel_remaining`: after a failure, every stage not yet recorded is recorded (and announced) in
 * order: the stage whose job settled keeps its outcome, a stage still running is failed as timed
 * out, and the stages that never started are `canceled`. Child jobs hold no credits, so nothing
 * here moves money; the inspection's own reservation is released when it is failed.
 */
export async function cancelRemainingStages(services: Services, id: string): Promise<{ recorded: number }> {
  let inspection = await runningInspection(services, id);
  let recorded = 0;
  while (inspection) {
    const stage = inspection.stages!.find((s) => !s.recorded);
    if (!stage) break;
    let next: { stage: StageRecord; files: Record<string, ProducedFile> };
    if (stage.job_id) {
      let child = await services.jobs.get(stage.job_id);
      if (child && !isTerminal(child.status)) {
        if (child.status === 'queued') await cancelQueuedJob(services, child);
        else await settleJob(services, child, { status: 'failed', error: STAGE_TIMED_OUT });
        child = await services.jobs.get(stage.job_id);
      }
      next = child
        ? stageFromChild(stage, child)
        : {
            stage: { ...stage, status: 'failed', error: STAGE_TIMED_OUT, completed_at: epochSeconds(services.clock) },
            files: {},
          };
    } else {
      next = { stage: { ...stage, status: 'canceled', completed_at: epochSeconds(services.clock) }, files: {} };
    }
    const after = await recordStage(services, inspection, next.stage, next.files);
    if (after) recorded += 1;
    inspection = after ?? (await runningInspection(services, id));
  }
  return { recorded };
}

/** Why an inspection failed: its failed stage's error, named; else what the pipeline reported. */
function inspectionError(inspection: JobRecord, failure: TaskFailureInfo | undefined): JobError {
  const failed = inspection.stages?.find((stage) => stage.error !== null && stage.status !== 'succeeded');
  if (failed?.error) return failedStageError(failed, failed.error);
  if (failure?.Error === 'States.Timeout') return STAGE_TIMED_OUT;
  // the pipeline itself was lost (restarts): a processing failure, whatever state its last stage reached
  if (failure?.Error === 'ExecutionLost')
    return {
      type: 'processing_error',
      code: 'upstream_timeout',
      message: `The inspection pipeline was lost (${failure.Cause ?? 'unknown'}); the remaining stages were canceled and nothing was charged.`,
    };
  return {
    type: 'internal',
    code: 'internal_error',
    message: 'The inspection pipeline failed; the remaining stages were canceled and nothing was charged.',
  };
}

/** `fail_inspection`: settles the inspection `failed`, charging 0 and releasing its whole reservation. */
export async function failInspection(
  services: Services,
  id: string,
  failure?: TaskFailureInfo,
): Promise<{ settled: boolean }> {
  const inspection = await runningInspection(services, id);
  if (!inspection) return { settled: false };
  const settled = await settleJob(services, inspection, {
    status: 'failed',
    error: inspectionError(inspection, failure),
  });
  return { settled: settled !== null };
}

/** The stage worker: one entry for every lambda:invoke task of the state machine. */
export async function runStageAction(services: Services, action: StageAction): Promise<Record<string, unknown>> {
  switch (action.action) {
    case 'begin':
      return begin(services, action.inspection_id);
    case 'start_stage':
      return startStage(services, action.inspection_id, action.stage, action.task_token);
    case 'record_stage':
      return recordFromChild(services, action.inspection_id, action.stage);
    case 'skip_stage':
      return skipStage(services, action.inspection_id, action.stage);
    case 'finalize':
      return finalize(services, action.inspection_id);
    case 'cancel_remaining':
      return cancelRemainingStages(services, action.inspection_id);
    case 'fail_inspection':
      return failInspection(services, action.inspection_id, action.failure);
  }
}
