import { requireFamily } from '../access/api-keys.js';
import type { Principal } from '../access/principal.js';
import { windowOf } from '../access/rate-limits.js';
import { keySpendOps } from '../access/spend-limits.js';
import type { EndpointDefinition } from '../catalogue/catalogue.js';
import { requireAvailable } from '../catalogue/plane-declaration.js';
import { afterAdmission, type JobRequest, jobDraft, newJob, reservationOps } from '../jobs/admission.js';
import type { JobRecord } from '../jobs/job.js';
import { ApiError } from '../kernel/errors.js';
import type { RateLimitWindow } from '../ports/access.js';
import type { Services } from '../ports/services.js';
import { fitsOneTransaction, sumSharedWrites, UnsummableWrites } from '../ports/summed-writes.js';
import { TransactionRefused, type WriteOp } from '../ports/transactions.js';
import type { BatchRecord } from './batch.js';
import { type BatchLineAdmission, batchLineOps } from './lines.js';

// A batch's lines admitted in groups (docs/internals/batches.md, "Lines admitted in groups"): as many lines
// in one transaction as DynamoDB's 100 actions allow. Each line keeps its own job, reservation,
// ledger entry, rate-limit hit and recorded outcome, exactly the writes its own admission would
// make; the shared items (the balance, the window, the key's spend, the batch) take one summed
// update per group (`sumSharedWrites`). A group refused as a whole (a balance short of the whole
// group, a window with too little room, a revoked key, a line recorded meanwhile, a lost lease)
// admits nothing, and its lines go one by one through `admit`, so each gets its own answer.

/** One line read as its call. */
export interface GroupLine {
  line: number;
  customId: string | null;
  request: JobRequest | ApiError;
}

/** What keeps a group's transaction well inside DynamoDB's 4 MB per transaction. */
const MAX_GROUP_BYTES = 2 * 1024 * 1024;

/** A line's writes in its group, and the job it admits (none for a failed line). */
interface PlannedLine {
  line: number;
  ops: WriteOp[];
  job: JobRecord | null;
}

/** A line refused before it became a job, recorded as a failed line. */
export function failedLineOps(line: BatchLineAdmission, error: ApiError): WriteOp[] {
  return batchLineOps(
    line,
    { job_id: null, error: { type: error.type, code: error.code, message: error.message, param: error.param } },
    { failed: 1 },
  );
}

/**
 * Admits the lines in groups, in order, one transaction per group. Returns the lines no group
 * admitted (every line of a refused group, and all of them when the key or its window rules out
 * a group): the caller admits those one by one.
 */
export async function admitLineGroups(
  services: Services,
  batch: BatchRecord,
  token: string,
  endpoint: EndpointDefinition,
  principal: Principal,
  lines: readonly GroupLine[],
): Promise<number[]> {
  const everyLine = lines.map((line) => line.line);
  try {
    requireFamily(principal, endpoint.family);
    requireAvailable(endpoint, principal.livemode, services.config.planeEndpoints);
  } catch (error) {
    // the same refusal for every line: answered one by one, as `admit` words it
    if (error instanceof ApiError) return everyLine;
    throw error;
  }
  const scope = {
    orgId: principal.orgId,
    livemode: principal.livemode,
    plan: await services.plans.planOf(principal.orgId),
    bucket: endpoint.slug,
  };
  const left: number[] = [];
  let group: PlannedLine[] = [];
  let groupBytes = 0;
  const commitGroup = async () => {
    if (group.length > 0 && !(await commitLineGroup(services, principal, group)))
      left.push(...group.map((l) => l.line));
    group = [];
  };
  for (const line of lines) {
    const window = windowOf(services.clock, scope);
    // a window this process saw spent admits nothing: the lines wait one by one for the next
    if (services.rateLimiter.isExhausted(window, services.clock)) {
      left.push(line.line);
      continue;
    }
    const planned = await planLine(services, batch, token, endpoint, principal, window, line);
    const bytes = JSON.stringify(planned.ops).length;
    // a group never holds more hits than a window allows
    if (!groupFits(principal, [...group, planned], groupBytes + bytes) || group.length + 1 > window.limit) {
      await commitGroup();
      groupBytes = 0;
    }
    group.push(planned);
    groupBytes += bytes;
  }
  await commitGroup();
  return left;
}

function groupFits(principal: Principal, group: readonly PlannedLine[], bytes: number): boolean {
  if (bytes > MAX_GROUP_BYTES) return false;
  try {
    return fitsOneTransaction([...group.flatMap((line) => line.ops), keysVersionOp(principal)]);
  } catch (error) {
    // a line whose shared writes differ from the group's (a key's spend in another day) starts a group of its own
    if (error instanceof UnsummableWrites) return false;
    throw error;
  }
}

function keysVersionOp(principal: Principal): WriteOp {
  return {
    kind: 'expectKeysVersion',
    orgId: principal.orgId,
    livemode: principal.livemode,
    version: principal.keysVersion ?? 0,
  };
}

/**
 * A line's writes, as its own admission would make them: its job, reservation and ledger entry,
 * the uploads it consumes, its recorded outcome and batch counters, its hit on the window and its
 * key's spend; or, for a line refused before it became a job, its failed outcome and its hit.
 */
async function planLine(
  services: Services,
  batch: BatchRecord,
  token: string,
  endpoint: EndpointDefinition,
  principal: Principal,
  window: RateLimitWindow,
  line: GroupLine,
): Promise<PlannedLine> {
  const admission: BatchLineAdmission = {
    batchId: batch.id,
    line: line.line,
    customId: line.customId,
    leaseToken: token,
  };
  const hit: WriteOp = {
    kind: 'countRequest',
    counterKey: window.counterKey,
    limit: window.limit,
    expiresAt: window.reset,
  };
  const request = line.request;
  if (request instanceof ApiError)
    return { line: line.line, ops: [...failedLineOps(admission, request), hit], job: null };
  try {
    const draft = await jobDraft(services, principal, endpoint, request);
    const job = newJob(services, {
      ...draft,
      principal,
      endpoint,
      scenario: null,
      requestId: `${batch.id}:${line.line}`,
      deadlineSeconds: request.deadlineSeconds,
      batchId: batch.id,
    });
    const reserved = job.credits.reserved;
    const ops = [
      ...reservationOps(services, job),
      ...draft.consumeOps,
      ...batchLineOps(admission, { job_id: job.id, error: null }, { reserved }),
      hit,
      ...(reserved > 0 ? keySpendOps(principal.apiKeyId, job.created, reserved, principal.spendLimit ?? null) : []),
    ];
    return { line: line.line, ops, job };
  } catch (error) {
    if (error instanceof ApiError)
      return { line: line.line, ops: [...failedLineOps(admission, error), hit], job: null };
    throw error;
  }
}

/** Commits one group; false when the transaction was refused as a whole, having written nothing. */
async function commitLineGroup(
  services: Services,
  principal: Principal,
  group: readonly PlannedLine[],
): Promise<boolean> {
  try {
    // a transaction writes an item once: the group's writes to a shared item go as their sum
    await services.uow.commit(sumSharedWrites([...group.flatMap((line) => line.ops), keysVersionOp(principal)]));
  } catch (error) {
    if (!(error instanceof TransactionRefused)) throw error;
    services.log.info('batch line group refused; its lines are admitted one by one', {
      lines: group.length,
      refused_by: error.refusedOps.join(', ') || 'conflicts',
    });
    return false;
  }
  for (const { job } of group) if (job) await afterAdmission(services, job);
  services.faults.reach('batch.after_group');
  return true;
}
