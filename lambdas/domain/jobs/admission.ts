import { authenticateApiKey, authenticateSecretHash, requireFamily } from '../access/api-keys.js';
import {
  claimIdempotencyKey,
  finishClaim,
  IDEMPOTENCY_HEADER,
  type IdempotencyClaim,
  idempotencyScope,
  storedRefusal,
} from '../access/idempotency.js';
import type { Principal } from '../access/principal.js';
import { rateLimitError, refusedDecision, windowOf } from '../access/rate-limits.js';
import { keySpendOps } from '../access/spend-limits.js';
import { type BatchLineAdmission, batchLineOps } from '../batches/lines.js';
import { ALL_SCENARIOS, type EndpointDefinition, reservationFor, type Scenario } from '../catalogue/catalogue.js';
import { requireAvailable } from '../catalogue/plane-declaration.js';
import type { InspectionStageName } from '../catalogue/stage-names.js';
import { replayedAfterRedaction } from '../erasure/redaction.js';
import { checkInspectionInputs, initialStages } from '../inspections/plan.js';
import { epochSeconds } from '../kernel/clock.js';
import { ApiError } from '../kernel/errors.js';
import { epochSecondsOfId, timeOfId, timeOrderedId } from '../kernel/ids.js';
import { modeOf } from '../kernel/mode.js';
import type { RateLimitDecision, RateLimitScope, RateLimitWindow, StoredResponse } from '../ports/access.js';
import type { Services } from '../ports/services.js';
import { TransactionRefused, type WriteOp } from '../ports/transactions.js';
import { callPrice } from './call-price.js';
import { armDeadline } from './deadline-timer.js';
import { withDurations } from './input-durations.js';
import { type IncomingFile, storeIncomingFiles } from './inputs.js';
import { type InputAsset, isTerminal, type JobRecord } from './job.js';
import { jobLedgerEntry } from './job-ledger.js';
import { type PublicJob, presentJob } from './job-view.js';
import { queueHoldOf } from './scenario-timing.js';
import { logJobTransition } from './transition-log.js';
import { resolveUploads } from './uploads.js';
import { waitForSettlement } from './waiting.js';

// The admission of an inference call (`POST /v1/{slug}`), read top to bottom in `admit`: the key,
// its scopes, the test scenario, the rate limit, the Idempotency-Key, then the credits, reserved in
// one transaction with the job; then the job's presentation. docs/internals/idempotency-and-rate-limits.md
// says why the key and the rate limit are settled inside that transaction.

export const SCENARIO_HEADER = 'X-Svc-Test-Scenario';

/** A call for a job of a single endpoint: its parameters and its inputs, as files or upload references. */
export interface JobRequest {
  kind: 'job';
  wait: boolean;
  params: Record<string, unknown>;
  files: IncomingFile[];
  /** upload references, in input order */
  inputRefs: string[];
  /** the request field that carried them, named by refusals */
  inputRefsParam: 'input_ref' | 'input_refs';
  /** `Svc-Deadline` in seconds (docs/internals/deadlines.md), null without one */
  deadlineSeconds?: number | null;
}

/** `POST /v1/inspections`: the eight-stage bundle takes upload references and the stages to leave out. */
export interface InspectionRequest {
  kind: 'inspection';
  wait: false;
  inputRefs: string[];
  exclude: InspectionStageName[];
  /** `Svc-Deadline` in seconds (docs/internals/deadlines.md), null without one */
  deadlineSeconds?: number | null;
}

/** An inference call as the HTTP layer parsed it. */
export interface InferenceCall {
  /** the admitting request's id, kept on the job for its transitions' log lines and named by stored refusals */
  requestId: string;
  endpoint: EndpointDefinition;
  /**
   * The caller as authenticated from the headers, and the secret it presented. The principal may
   * come from the cache (`provisional`): the admission confirms it, in its transaction or by a
   * strongly consistent read before it answers anything else.
   */
  key: { principal: Principal; secret: string | null };
  /** `X-Svc-Test-Scenario` as sent */
  scenario: string | undefined;
  /** `Idempotency-Key` as sent, with the fingerprint of the request it names */
  idempotency: { key: string; fingerprint: string } | null;
  /** the query and body, or why they could not be read: answered in its turn, after the checks of the caller */
  request: JobRequest | InspectionRequest | ApiError;
  /** a line of a batch (docs/internals/batches.md): its outcome is recorded in the admission transaction, so a line is admitted once */
  batchLine?: BatchLineAdmission;
}

export type Admission =
  | { kind: 'admitted'; status: 200 | 202; job: PublicJob; rateLimit: RateLimitDecision }
  /** the answer stored under the call's Idempotency-Key */
  | { kind: 'replayed'; response: StoredResponse; rateLimit: RateLimitDecision }
  /** nothing was created; `rateLimit` is null when the key itself was refused */
  | { kind: 'refused'; error: ApiError; rateLimit: RateLimitDecision | null };

/**
 * Admits an inference call: checks it, creates its job and reserves its credits in one
 * transaction, hands the job to its work lane and presents it (settled, with `wait=true`). Every
 * call past the key counts against the rate limit, and a refused key or a spent window is what it
 * answers, whatever else it would have answered. A refusal creates nothing; under an
 * Idempotency-Key, a final answer (the job, or a 4xx) is stored for replay.
 */
export async function admit(services: Services, call: InferenceCall): Promise<Admission> {
  const { endpoint } = call;
  // 1. the key (a cached principal is confirmed below); its organisation's plan sets the window
  const checks = await callerChecks(services, call);
  let claim: IdempotencyClaim | null = null;
  let admitted: { job: JobRecord; presented: PublicJob; wait: boolean };
  try {
    // 2. the key's scopes
    requireFamily(checks.principal, endpoint.family);
    // 3. the test scenario (test keys only), and an endpoint the caller's mode does not compute
    const scenario = scenarioOf(checks.principal, endpoint, call.scenario);
    requireAvailable(endpoint, checks.principal.livemode, services.config.planeEndpoints);
    // 4. the rate limit: a window this process saw spent is refused at once; the hit is counted in
    //    the admission transaction, or before answering when the call admits nothing
    await refuseIfKnownSpent(services, checks);
    // 5. the Idempotency-Key: a replay answers what the first request answered
    if (call.idempotency) {
      const claimed = await claimIdempotencyKey(
        services,
        idempotencyScope(checks.principal.orgId, modeOf(checks.principal.livemode)),
        call.idempotency.key,
        call.idempotency.fingerprint,
      );
      if (claimed.kind === 'replay') {
        await countOutside(services, checks);
        // a job redacted since shows its result null in the replay too (docs/internals/data-retention.md)
        return {
          kind: 'replayed',
          response: { ...claimed.response, body: await replayedAfterRedaction(services, claimed.response.body) },
          rateLimit: checks.decision!,
        };
      }
      claim = claimed.claim;
    }
    const request = call.request;
    if (request instanceof ApiError) throw request;
    // 6. the credits: a test call steered to lack them fails before anything is stored
    if (scenario === 'insufficient_credits') throw new ApiError('insufficient_credits');
    const draft =
      request.kind === 'inspection'
        ? await inspectionDraft(services, checks.principal, endpoint, request)
        : await jobDraft(services, checks.principal, endpoint, request);
    const batch = call.batchLine ? { batchId: call.batchLine.batchId } : {};
    const job = newJob(services, {
      ...draft,
      principal: checks.principal,
      endpoint,
      scenario,
      requestId: call.requestId,
      deadlineSeconds: request.deadlineSeconds,
      ...batch,
    });
    const presented = await presentJob(services, job);
    // the job, its reservation, the key's version, the rate-limit hit, the uploads it consumes and
    // the answer stored under the Idempotency-Key commit together or not at all
    const ops = [
      ...reservationOps(services, job),
      ...draft.consumeOps,
      ...(claim ? [completion(claim, presented, request.wait ? waitEndsBy(services) : undefined)] : []),
      ...(call.batchLine
        ? batchLineOps(call.batchLine, { job_id: job.id, error: null }, { reserved: job.credits.reserved })
        : []),
    ];
    await commitChecked(services, checks, ops, { at: job.created, credits: job.credits.reserved }).catch(
      (error: unknown) => {
        throw refusalOf(error, draft.inputRefsParam);
      },
    );
    admitted = { job, presented, wait: request.wait };
  } catch (error) {
    return refuse(services, checks, claim, error, call.requestId);
  }
  await afterAdmission(services, admitted.job);
  if (!admitted.wait) return { kind: 'admitted', status: 202, job: admitted.presented, rateLimit: checks.decision! };
  const latest = (await waitForSettlement(services, admitted.job.id, services.config.waitCeilingMs)) ?? admitted.job;
  const answer = {
    status: isTerminal(latest.status) ? (200 as const) : (202 as const),
    job: await presentJob(services, latest),
  };
  // the settled answer replaces the `202` stored with the job; should this process die first, that one stands
  if (claim)
    await finishClaim(services, claim, { status: answer.status, contentType: 'application/json', body: answer.job });
  return { kind: 'admitted', ...answer, rateLimit: checks.decision! };
}

// ——— the caller's key and rate limit ———

interface CallerChecks {
  principal: Principal;
  secret: string | null;
  scope: RateLimitScope;
  window: RateLimitWindow;
  /** made once the call is counted (or refused by its window) */
  decision: RateLimitDecision | null;
}

async function callerChecks(services: Services, call: InferenceCall): Promise<CallerChecks> {
  const { principal, secret } = call.key;
  const scope = {
    orgId: principal.orgId,
    livemode: principal.livemode,
    plan: await services.plans.planOf(principal.orgId),
    bucket: call.endpoint.slug,
  };
  return { principal, secret, scope, window: windowOf(services.clock, scope), decision: null };
}

/** A principal from the cache is read again, strongly consistent: `401` when its key was revoked meanwhile. */
async function confirmKey(services: Services, checks: CallerChecks): Promise<void> {
  if (checks.principal.provisional) checks.principal = await reauthenticate(services, checks);
}

/** The key read again; a batch's line carries no secret, only its hash. */
function reauthenticate(
  services: Services,
  checks: CallerChecks,
  options: { provisional?: boolean } = {},
): Promise<Principal> {
  const { secretHash } = checks.principal;
  if (checks.secret === null && secretHash) return authenticateSecretHash(services, secretHash, options);
  return authenticateApiKey(services, checks.secret, options);
}

async function refuseIfKnownSpent(services: Services, checks: CallerChecks): Promise<void> {
  if (!services.rateLimiter.isExhausted(checks.window, services.clock)) return;
  await confirmKey(services, checks);
  checks.decision = refusedDecision(checks.window);
  throw rateLimitError(checks.decision, checks.scope.bucket, checks.scope.plan, epochSeconds(services.clock));
}

/** For a call that commits no admission: confirms the key (`401` first) and counts the call (`429` next). */
async function countOutside(services: Services, checks: CallerChecks): Promise<void> {
  if (checks.decision) return;
  await confirmKey(services, checks);
  checks.decision = await services.rateLimiter.check(services.clock, checks.scope);
  if (!checks.decision.allowed)
    throw rateLimitError(checks.decision, checks.scope.bucket, checks.scope.plan, epochSeconds(services.clock));
}

/** a key revoked on every attempt is no longer a race but a storm: give up as a conflict */
const MAX_KEY_RECHECKS = 3;

/**
 * Commits `ops` with the caller's checks: the keys version the principal was read with (a
 * revocation, rotation or spend-limit change since refuses the transaction), the window's hit
 * (refused once the window is spent) and the key's spend (refused past its limit). `RateLimit-Remaining` comes from the window's count as this process knows it,
 * read beside the transaction when that is more than a second old.
 */
async function commitChecked(
  services: Services,
  checks: CallerChecks,
  ops: readonly WriteOp[],
  spend: { at: number; credits: number },
): Promise<void> {
  services.faults.reach('admission.before_commit');
  for (let attempt = 1; ; attempt += 1) {
    const { orgId, livemode, keysVersion } = checks.principal;
    const { window } = checks;
    // a principal read without its version (none is, on this path) is held to version 0: a mismatch only costs a re-read
    const checkOps: WriteOp[] = [
      { kind: 'expectKeysVersion', orgId, livemode, version: keysVersion ?? 0 },
      { kind: 'countRequest', counterKey: window.counterKey, limit: window.limit, expiresAt: window.reset },
      // the key's spend, held to the limit the principal was read with (the keys version vouches for it)
      ...(spend.credits > 0
        ? keySpendOps(checks.principal.apiKeyId, spend.at, spend.credits, checks.principal.spendLimit ?? null)
        : []),
    ];
    try {
      const commit = services.uow.commit([...ops, ...checkOps]);
      const count = services.rateLimiter.wantsCount(window, services.clock)
        ? services.rateLimitCounter.read(window.counterKey).catch(() => null)
        : null;
      const [, observed] = await Promise.all([commit, count]);
      checks.principal = { ...checks.principal, provisional: false };
      checks.decision = services.rateLimiter.admitted(window, services.clock, observed);
      return;
    } catch (error) {
      if (!(error instanceof TransactionRefused)) throw error;
      const refused = error.refusedOps;
      if (refused.includes('expectKeysVersion') && attempt < MAX_KEY_RECHECKS) {
        // the organisation's keys changed since the principal was read: read it again (`401` if it
        // is this key that was revoked) and try once more; another key's revocation must not refuse it
        if (checks.principal.secretHash) services.principals.forget(checks.principal.secretHash);
        checks.principal = await reauthenticate(services, checks, { provisional: true });
        continue;
      }
      // refused by another condition while the version held: as good as a fresh read of the key
      // (a refusal naming nothing was a conflict, which proves nothing about it)
      if (refused.length > 0 && !refused.includes('expectKeysVersion'))
        checks.principal = { ...checks.principal, provisional: false };
      if (refused.includes('countRequest')) {
        services.rateLimiter.markExhausted(window);
        checks.decision = refusedDecision(window);
        throw rateLimitError(checks.decision, checks.scope.bucket, checks.scope.plan, epochSeconds(services.clock));
      }
      throw error;
    }
  }
}

/** What a refused admission transaction answers, by the condition of the job's own writes that refused it. */
function refusalOf(error: unknown, inputRefsParam: 'input_ref' | 'input_refs'): unknown {
  if (!(error instanceof TransactionRefused)) return error;
  const refused = error.refusedOps;
  if (refused.includes('consumeUpload'))
    return new ApiError(
      'upload_already_consumed',
      inputRefsParam,
      'An upload reference of this call was consumed by another job meanwhile.',
    );
  if (refused.includes('completeIdempotency'))
    return new ApiError('idempotency_key_in_use', IDEMPOTENCY_HEADER, undefined, { afterSeconds: 1 });
  if (refused.includes('moveBalance')) return new ApiError('insufficient_credits');
  if (refused.includes('countKeySpend'))
    return new ApiError(
      'spend_limit_exceeded',
      null,
      'This call would take the API key past its spend limit for the period; raise the limit or wait for the next period.',
    );
  return error;
}

/**
 * A call that admitted nothing. The key is confirmed and the call counted first, so a `401` or a
 * `429` is what it answers; otherwise its own refusal, stored under its Idempotency-Key when final.
 * Anything unexpected frees the key for a retry and fails the call.
 */
async function refuse(
  services: Services,
  checks: CallerChecks,
  claim: IdempotencyClaim | null,
  error: unknown,
  requestId: string,
): Promise<Admission> {
  try {
    await countOutside(services, checks);
  } catch (winner) {
    if (claim) await finishClaim(services, claim, null);
    if (winner instanceof ApiError) return { kind: 'refused', error: winner, rateLimit: checks.decision };
    throw winner;
  }
  if (!(error instanceof ApiError)) {
    if (claim) await finishClaim(services, claim, null);
    throw error;
  }
  if (claim) await finishClaim(services, claim, storedRefusal(error, requestId, services.config.docsUrl));
  return { kind: 'refused', error, rateLimit: checks.decision };
}

// ——— the call's scenario, inputs and job ———

/** Live keys ignore the scenario header; test keys must name a scenario the endpoint supports. */
function scenarioOf(principal: Principal, endpoint: EndpointDefinition, header: string | undefined): Scenario | null {
  if (principal.livemode || header === undefined || header.trim() === '') return null;
  const value = header.trim();
  if (!(ALL_SCENARIOS as readonly string[]).includes(value)) {
    throw new ApiError(
      'test_scenario_not_supported',
      SCENARIO_HEADER,
      `Unknown test scenario ${value}. Known: ${ALL_SCENARIOS.join(', ')}.`,
    );
  }
  if (!endpoint.scenarios.includes(value as Scenario)) {
    throw new ApiError(
      'test_scenario_not_supported',
      SCENARIO_HEADER,
      `${endpoint.slug} does not support the test scenario ${value}; it supports ${endpoint.scenarios.join(', ')}.`,
    );
  }
  return value as Scenario;
}

/** What a job is made of besides its caller and endpoint, and the writes that consume its upload references. */
interface Draft extends Pick<JobDraft, 'jobId' | 'params' | 'inputs' | 'reserved' | 'fields'> {
  consumeOps: WriteOp[];
  /** the request field that carried upload references, named by `upload_already_consumed` */
  inputRefsParam: 'input_ref' | 'input_refs';
}

export async function jobDraft(
  services: Services,
  principal: Principal,
  endpoint: EndpointDefinition,
  request: JobRequest,
): Promise<Draft> {
  const uploads = await resolveUploads(services, principal, endpoint, request.inputRefs, request.inputRefsParam);
  const jobId = newJobId(services);
  // test mode keeps multipart bytes only where the sandbox model may hand an input back unchanged
  const keepBytes = principal.livemode || endpoint.sandboxReturnsInputs;
  const inputs = await withDurations(
    services,
    endpoint,
    request.files.length
      ? await storeIncomingFiles(services, principal.orgId, jobId, request.files, keepBytes)
      : uploads.inputs,
    request.files,
  );
  const reserved = callPrice(endpoint, inputs).reserve;
  return {
    jobId,
    params: request.params,
    inputs,
    reserved,
    consumeOps: uploads.consumeOps(jobId),
    inputRefsParam: request.inputRefsParam,
  };
}

/** An inspection reserves its blended price and starts with its stages; its work message starts the pipeline. */
async function inspectionDraft(
  services: Services,
  principal: Principal,
  endpoint: EndpointDefinition,
  request: InspectionRequest,
): Promise<Draft> {
  const uploads = await resolveUploads(services, principal, endpoint, request.inputRefs, 'input_refs');
  checkInspectionInputs(uploads.inputs, request.exclude);
  const jobId = newJobId(services);
  return {
    jobId,
    params: { stages: { exclude: request.exclude } },
    inputs: uploads.inputs,
    reserved: callPrice(endpoint, uploads.inputs, request.exclude).reserve,
    fields: { stages: initialStages(request.exclude), stages_started: 0, stages_recorded: 0, execution_attempt: 0 },
    consumeOps: uploads.consumeOps(jobId),
    inputRefsParam: 'input_refs',
  };
}

export interface JobDraft {
  principal: Principal;
  endpoint: EndpointDefinition;
  jobId: string;
  params: Record<string, unknown>;
  inputs: InputAsset[];
  /** already validated against the endpoint; null for live keys and unsteered test calls */
  scenario: Scenario | null;
  /** credits to hold (`callPrice`); the catalogue's reservation for the inputs when absent */
  reserved?: number;
  /** the admitting request's id, kept on the job for its transitions' log lines */
  requestId?: string;
  /** `Svc-Deadline`: the job expires unsettled that many seconds after `created` */
  deadlineSeconds?: number | null;
  /** fields of endpoint-specific jobs (an inspection's stages) */
  fields?: Pick<JobRecord, 'stages' | 'stages_started' | 'stages_recorded' | 'execution_attempt'>;
  /** the batch whose line the job runs */
  batchId?: string;
}

export function newJobId(services: Services): string {
  return timeOrderedId('job', services.clock.nowMs());
}

export function queueTimeoutSeconds(services: Services, endpoint: EndpointDefinition): number {
  return services.config.queueTimeoutOverrideSeconds ?? endpoint.queueTimeoutSeconds;
}

/** The queued job a draft describes. */
export function newJob(services: Services, draft: JobDraft): JobRecord {
  const { principal, endpoint } = draft;
  // one clock reading for id and `created`, so lists ordered by id are newest first by `created` too
  const now = epochSecondsOfId(draft.jobId);
  const hold = queueHoldOf(draft.scenario, services.config);
  const delay = hold.delaySeconds;
  return {
    id: draft.jobId,
    org_id: principal.orgId,
    api_key_id: principal.apiKeyId,
    livemode: principal.livemode,
    endpoint: endpoint.slug,
    status: 'queued',
    created: now,
    started_at: null,
    completed_at: null,
    model_version: null,
    credits: { reserved: draft.reserved ?? reservationFor(endpoint, draft.inputs.length), charged: null },
    result: null,
    error: null,
    test_scenario: principal.livemode ? null : draft.scenario,
    params: draft.params,
    inputs: draft.inputs,
    files: {},
    billable_units: null,
    queue_deadline: now + (hold.queueTimeoutSeconds ?? queueTimeoutSeconds(services, endpoint)),
    redrive_at: now + delay + services.config.redriveAfterSeconds,
    simulated_delay_seconds: delay,
    ...(draft.deadlineSeconds
      ? {
          deadline_seconds: draft.deadlineSeconds,
          deadline_at_ms: timeOfId(draft.jobId) + draft.deadlineSeconds * 1000,
        }
      : {}),
    ...(draft.requestId ? { request_id: draft.requestId } : {}),
    ...(draft.batchId ? { batch_id: draft.batchId } : {}),
    ...draft.fields,
  };
}

/** The job and the reservation of its credits: refused by `moveBalance` when the balance is too low. */
export function reservationOps(services: Services, job: JobRecord): WriteOp[] {
  const reserved = job.credits.reserved;
  return [
    { kind: 'createJob', job },
    { kind: 'moveBalance', orgId: job.org_id, livemode: job.livemode, delta: -reserved, mustStayNonNegative: true },
    { kind: 'appendLedger', entry: jobLedgerEntry(services, job, 'reserve', -reserved) },
  ];
}

/**
 * The answer stored under the call's Idempotency-Key, in the admission transaction itself: a
 * crash after it cannot lead to a second job. `settlingUntil` (a `wait=true` call): until then a
 * duplicate is told the key is in use, because this request will still store its final answer.
 */
function completion(claim: IdempotencyClaim, job: PublicJob, settlingUntil: number | undefined): WriteOp {
  const response: StoredResponse = { status: 202, contentType: 'application/json', body: job };
  return {
    kind: 'completeIdempotency',
    scopeKey: claim.scopeKey,
    lockToken: claim.lockToken,
    response,
    ...(settlingUntil !== undefined ? { settlingUntil } : {}),
  };
}

/** When a `wait=true` call will have answered at the latest (epoch seconds). */
function waitEndsBy(services: Services): number {
  return epochSeconds(services.clock) + Math.ceil(services.config.waitCeilingMs / 1000) + 1;
}

/**
 * What follows an admission's commit. The job's id reaches its work queue through the table's
 * stream and the job stream's Pipe, never from here (docs/internals/architecture.md, "One enqueue path"); the
 * sweeper re-sends a job whose record the Pipe lost. The Svc-Deadline timer is the call's one
 * queue send, made before answering.
 */
export async function afterAdmission(services: Services, job: JobRecord): Promise<void> {
  logJobTransition(services, job, 'queued');
  services.metrics.count('Admissions', 1, { endpoint: job.endpoint, mode: modeOf(job.livemode) });
  services.faults.reach('admission.after_commit');
  await armAdmittedDeadline(services, job);
  services.faults.reach('admission.before_answer');
}

async function armAdmittedDeadline(services: Services, job: JobRecord): Promise<void> {
  await armDeadline(services, job).catch((error: unknown) => {
    services.log.warn('deadline timer not sent; the sweeper expires the job when it re-drives it', {
      job_id: job.id,
      error: String(error),
    });
  });
}
