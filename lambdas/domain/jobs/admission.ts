import { ApiError } from '../kernel/errors.js';
import { reservationFor, type EndpointDefinition, type Scenario } from '../catalogue/catalogue.js';
import type { Services } from '../ports/services.js';
import { epochSecondsOfId, timeOrderedId } from '../kernel/ids.js';
import type { InputAsset, JobRecord } from './job.js';
import { TransactionRefused, type WriteOp } from '../ports/transactions.js';
import type { Principal } from '../access/principal.js';
import { logJobTransition } from './transition-log.js';
import { jobLedgerEntry } from './job-ledger.js';
import { enqueueJob } from './work-lanes.js';
import { queueHoldOf } from './scenario-timing.js';

/** Request checks that commit with the job (the key's revocation, the rate-limit hit): see AdmissionGate. */
export interface AdmissionChecks {
  ops(): WriteOp[];
  /** true when the refusal was the checks' own and they were renewed: the admission is tried again */
  recheck(refusedOps: readonly WriteOp['kind'][]): Promise<boolean>;
  /** runs beside the transaction */
  observe(): Promise<void>;
  /** the answer when one of the checks' own writes refused the transaction */
  refusal(refusedOps: readonly WriteOp['kind'][]): Error | null;
  committed(): void;
}

export interface AdmissionRequest {
  principal: Principal;
  endpoint: EndpointDefinition;
  jobId: string;
  params: Record<string, unknown>;
  inputs: InputAsset[];
  /** already validated against the endpoint; null for live keys and unsteered test calls */
  scenario: Scenario | null;
  /** the request field that carried upload references, named by `upload_already_consumed` */
  inputRefsParam?: 'input_ref' | 'input_refs';
  /** further writes that must commit with the job: consuming upload references, completing the Idempotency-Key */
  extraOps?: (job: JobRecord) => Promise<WriteOp[]>;
  /** credits to hold instead of the catalogue's reservation (an inspection's blended price) */
  reserved?: number;
  /** the admitting request's id, kept on the job for its transitions' log lines */
  requestId?: string;
  /** fields of endpoint-specific jobs (an inspection's stages) */
  fields?: Pick<JobRecord, 'stages' | 'stages_started' | 'stages_recorded' | 'execution_attempt'>;
  checks?: AdmissionChecks;
}

export function newJobId(services: Services): string {
  return timeOrderedId('job', services.clock.nowMs());
}

export function queueTimeoutSeconds(services: Services, endpoint: EndpointDefinition): number {
  return services.config.queueTimeoutOverrideSeconds ?? endpoint.queueTimeoutSeconds;
}

/** A test call steered to fail admission fails before anything is stored. */
export function refuseSteeredAdmission(scenario: Scenario | null): void {
  if (scenario === 'insufficient_credits') throw new ApiError('insufficient_credits');
}

/** Hands an admitted job to its work lane, as `enqueueAdmittedJobs` says; the sweeper re-drives a lost send. */
async function enqueueAdmitted(services: Services, job: JobRecord, delaySeconds: number): Promise<void> {
  await enqueueJob(services, job, delaySeconds).catch((error: unknown) => {
    services.log.warn('enqueue failed; the sweeper will re-drive the job', { job_id: job.id, error: String(error) });
  });
}

function announceAdmission(services: Services, job: JobRecord, delaySeconds: number): Promise<void> | void {
  const mode = services.config.enqueueAdmittedJobs;
  if (mode === 'table-stream') return;
  if (mode === 'after-answer') return services.background.add(enqueueAdmitted(services, job, delaySeconds));
  return enqueueAdmitted(services, job, delaySeconds);
}

/** a key revoked on every attempt is no longer a race but a storm: give up as a conflict */
const MAX_RECHECKS = 3;

async function commitWithChecks(services: Services, ops: readonly WriteOp[], checks: AdmissionChecks | undefined): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await Promise.all([services.uow.commit([...ops, ...(checks?.ops() ?? [])]), checks?.observe()]);
      checks?.committed();
      return;
    } catch (error) {
      if (!(error instanceof TransactionRefused) || !checks || attempt >= MAX_RECHECKS || !(await checks.recheck(error.refusedOps))) throw error;
    }
  }
}

/**
 * Creates the job and reserves its credits in one transaction (with the request's checks, when
 * given), then hands it to its work lane. A lost enqueue is harmless: the sweeper re-sends
 * queued jobs after `redrive_at`.
 */
export async function admitJob(services: Services, request: AdmissionRequest): Promise<JobRecord> {
  const { principal, endpoint } = request;
  refuseSteeredAdmission(request.scenario);

  // one clock reading for id and `created`, so lists ordered by id are newest first by `created` too
  const now = epochSecondsOfId(request.jobId);
  const reserved = request.reserved ?? reservationFor(endpoint, request.inputs.length);
  const hold = queueHoldOf(request.scenario, services.config);
  const delay = hold.delaySeconds;
  const job: JobRecord = {
    id: request.jobId,
    org_id: principal.orgId,
    api_key_id: principal.apiKeyId,
    livemode: principal.livemode,
    endpoint: endpoint.slug,
    status: 'queued',
    created: now,
    started_at: null,
    completed_at: null,
    model_version: null,
    credits: { reserved, charged: null },
    result: null,
    error: null,
    test_scenario: principal.livemode ? null : request.scenario,
    params: request.params,
    inputs: request.inputs,
    files: {},
    billable_units: null,
    queue_deadline: now + (hold.queueTimeoutSeconds ?? queueTimeoutSeconds(services, endpoint)),
    redrive_at: now + delay + services.config.redriveAfterSeconds,
    simulated_delay_seconds: delay,
    ...(request.requestId ? { request_id: request.requestId } : {}),
    ...request.fields,
  };
  const ops: WriteOp[] = [
    { kind: 'createJob', job },
    { kind: 'moveBalance', orgId: job.org_id, livemode: job.livemode, delta: -reserved, mustStayNonNegative: true },
    { kind: 'appendLedger', entry: jobLedgerEntry(services, job, 'reserve', -reserved) },
    ...(request.extraOps ? await request.extraOps(job) : []),
  ];
  try {
    services.faults.reach('admission.before_commit');
    await commitWithChecks(services, ops, request.checks);
  } catch (error) {
    const refusal = error instanceof TransactionRefused ? request.checks?.refusal(error.refusedOps) : null;
    if (refusal) throw refusal;
    if (error instanceof TransactionRefused && error.refusedOps.includes('consumeUpload')) {
      throw new ApiError(
        'upload_already_consumed',
        request.inputRefsParam ?? (request.inputs.length > 1 ? 'input_refs' : 'input_ref'),
        'An upload reference of this call was consumed by another job meanwhile.',
      );
    }
    if (error instanceof TransactionRefused && error.refusedOps.includes('completeIdempotency'))
      throw new ApiError('idempotency_key_in_use', 'Idempotency-Key', undefined, { 'Retry-After': '1' });
    if (error instanceof TransactionRefused && error.refusedOps.includes('moveBalance')) throw new ApiError('insufficient_credits');
    throw error;
  }
  logJobTransition(services, job, 'queued');
  services.metrics.count('Admissions', 1, { endpoint: job.endpoint, mode: job.livemode ? 'live' : 'test' });
  services.faults.reach('admission.after_commit');
  await announceAdmission(services, job, delay);
  services.faults.reach('admission.after_enqueue');
  return job;
}
