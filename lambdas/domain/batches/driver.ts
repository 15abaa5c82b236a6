import { authenticateSecretHash } from '../access/api-keys.js';
import type { Principal } from '../access/principal.js';
import { CATALOGUE, type EndpointDefinition } from '../catalogue/catalogue.js';
import { admit, type JobRequest } from '../jobs/admission.js';
import { epochSeconds } from '../kernel/clock.js';
import { ApiError } from '../kernel/errors.js';
import { logFailure } from '../kernel/failure-log.js';
import { randomBase58 } from '../kernel/ids.js';
import { inPool } from '../kernel/pool.js';
import type { Services } from '../ports/services.js';
import { TransactionRefused } from '../ports/transactions.js';
import { type BatchRecord, isBatchFinished } from './batch.js';
import { cancelQueuedBatchJobs } from './cancel.js';
import { completeBatchIfSettled } from './completion.js';
import { customIdOf, storedInputLines } from './input-file.js';
import { admitLineGroups, failedLineOps } from './line-groups.js';
import { type BatchLineAdmission, batchLineOps } from './lines.js';

// The admission of a batch's lines (docs/internals/batches.md), the same code wherever it runs: the process
// that created the batch, the sweeper taking over a batch whose driver died, a Distributed Map's
// item processor on AWS. A driver holds the batch's lease; every line's outcome is recorded in the
// transaction that makes it, on that lease, so a line is admitted once however often it is retried.

/** A line read as the call it stands for; a line that does not read is a refusal, recorded as a failed line. */
export interface BatchLineCall {
  customId: string | null;
  request: JobRequest | ApiError;
}

/** Reads one line of the input file (lambdas/http/inference/batch-line.ts: the code that reads a call's JSON body). */
export type LineReader = (text: string, endpoint: EndpointDefinition) => Promise<BatchLineCall>;

/** Lines admitted between two saves of the cursor; a resumed driver redoes at most these, and each one it finds recorded it skips. */
export const LINES_PER_CHUNK = 40;
/** Lines admitted at once: each moves the balance and the batch counters, so more only conflict. */
export const CONCURRENT_LINES = 8;
/** A line whose transaction keeps conflicting is left for the chunk's next pass. */
const MAX_LINE_ATTEMPTS = 5;

export type DriveOutcome = 'finished' | 'admitted' | 'stopped' | 'busy' | 'lease_lost';

export class LeaseLost extends Error {}

/**
 * Admits the batch's lines from its cursor on, under a lease of its own: `busy` when another driver
 * holds it. Ends by completing the batch when every line is settled already.
 */
export async function driveBatch(services: Services, batchId: string, readLine: LineReader): Promise<DriveOutcome> {
  const batch = await services.batches.get(batchId);
  if (!batch || isBatchFinished(batch.status)) return 'finished';
  if (batch.cursor >= batch.total || batch.stopped_at !== null) {
    await completeBatchIfSettled(services, batchId);
    return 'finished';
  }
  const token = randomBase58(16);
  try {
    await services.uow.commit([
      {
        kind: 'updateBatch',
        batchId,
        set: { status: 'running', lease_token: token, lease_until: leaseEnd(services) },
        expectStatus: ['validating', 'running'],
        expectLease: { freeAt: epochSeconds(services.clock) },
      },
    ]);
  } catch (error) {
    if (error instanceof TransactionRefused) return 'busy';
    throw error;
  }
  try {
    const outcome = await admitLines(services, { ...batch, lease_token: token }, token, readLine);
    // admission is over: the lease is let go, and the sweeper looks again once it has run out
    // (refused when the batch completed meanwhile, which lets go of the lease too)
    await commitOnLease(services, token, {
      kind: 'updateBatch',
      batchId,
      set: { lease_token: null, lease_until: leaseEnd(services) },
      expectLease: { token },
    });
    await completeBatchIfSettled(services, batchId);
    return outcome;
  } catch (error) {
    if (error instanceof LeaseLost) return 'lease_lost';
    throw error;
  }
}

function leaseEnd(services: Services): number {
  return epochSeconds(services.clock) + services.config.batchLeaseSeconds;
}

async function admitLines(
  services: Services,
  initial: BatchRecord,
  token: string,
  readLine: LineReader,
): Promise<'admitted' | 'stopped'> {
  const lines = await storedInputLines(services, initial.input_object_key);
  let cursor = initial.cursor;
  while (cursor < initial.total) {
    const batch = await services.batches.get(initial.id);
    if (batch?.lease_token !== token) throw new LeaseLost();
    const end = Math.min(cursor + LINES_PER_CHUNK, batch.total);
    const recorded = new Set((await services.batches.lines(batch.id, cursor, end)).map((line) => line.line));
    // canceled: a chunk a crashed driver began is finished with canceled lines, and admission stops after it
    if (batch.cancel_requested) return stopAdmission(services, batch, token, cursor, end, recorded, lines);
    await admitBatchLines(
      services,
      batch,
      token,
      range(cursor, end).filter((line) => !recorded.has(line)),
      (line) => lines[line]!,
      readLine,
    );
    cursor = end;
    await commitOnLease(services, token, {
      kind: 'updateBatch',
      batchId: batch.id,
      set: { cursor, lease_until: leaseEnd(services) },
      expectLease: { token },
    });
  }
  return 'admitted';
}

/** Lines the driver recorded no outcome for after its passes: each kept conflicting; a retry of the chunk skips the recorded ones. */
export class BatchLinesPending extends Error {
  override readonly name = 'BatchLinesPending';
}

/**
 * Admits the given lines of the batch (none recorded yet, at most a chunk of them) on the lease
 * `token` until every one has its outcome: first in groups, as many lines per transaction as it
 * takes (line-groups.ts), then the lines no group admitted one by one through the one admission
 * path, 8 at a time. The driver's chunk and a Distributed Map's item batch (map-run.ts) are both
 * admitted by this.
 */
export async function admitBatchLines(
  services: Services,
  batch: BatchRecord,
  token: string,
  lineNumbers: readonly number[],
  textOf: (line: number) => string,
  readLine: LineReader,
): Promise<void> {
  if (lineNumbers.length === 0) return;
  const endpoint = CATALOGUE[batch.endpoint];
  const principal = await batchPrincipal(services, batch);
  const calls = new Map<number, BatchLineCall>();
  for (const line of lineNumbers) calls.set(line, await readLine(textOf(line), endpoint));
  let pending =
    principal instanceof ApiError
      ? [...lineNumbers]
      : await admitLineGroups(
          services,
          batch,
          token,
          endpoint,
          principal,
          lineNumbers.map((line) => ({ line, ...calls.get(line)! })),
        );
  const from = Math.min(...lineNumbers);
  const to = Math.max(...lineNumbers) + 1;
  for (let pass = 0; pending.length > 0; pass += 1) {
    if (pass >= MAX_LINE_ATTEMPTS)
      throw new BatchLinesPending(`batch ${batch.id}: lines ${pending.join(', ')} could not be recorded`);
    await inPool(pending, CONCURRENT_LINES, (line) =>
      admitLine(
        services,
        batch,
        { batchId: batch.id, line, customId: calls.get(line)!.customId, leaseToken: token },
        endpoint,
        principal,
        calls.get(line)!.request,
      ),
    );
    // a line whose transaction kept conflicting is not recorded yet: the lines are done only when every one is
    const done = new Set((await services.batches.lines(batch.id, from, to)).map((line) => line.line));
    pending = pending.filter((line) => !done.has(line));
  }
}

/** The key that created the batch, read again (cached briefly): a revoked key admits no further line. */
async function batchPrincipal(services: Services, batch: BatchRecord): Promise<Principal | ApiError> {
  try {
    return await authenticateSecretHash(services, batch.secret_hash, { provisional: true });
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
}

/** Admits one line through the one admission path; what refuses it (a bad line, credits, a revoked key) is recorded as a failed line. */
async function admitLine(
  services: Services,
  batch: BatchRecord,
  lineAdmission: BatchLineAdmission,
  endpoint: EndpointDefinition,
  principal: Principal | ApiError,
  request: BatchLineCall['request'],
): Promise<void> {
  if (principal instanceof ApiError) return recordFailedLine(services, lineAdmission, principal);
  for (;;) {
    let refusal: ApiError;
    try {
      const admission = await admit(services, {
        requestId: `${batch.id}:${lineAdmission.line}`,
        endpoint,
        key: { principal, secret: null },
        scenario: undefined,
        idempotency: null,
        request,
        batchLine: lineAdmission,
      });
      services.faults.reach('batch.after_line');
      if (admission.kind !== 'refused') return;
      refusal = admission.error;
    } catch (error) {
      if (error instanceof TransactionRefused) return settleRefusedLine(error);
      throw error;
    }
    // the organisation's rate limit holds for its batches too: the line waits for the next window
    if (refusal.code === 'rate_limit_exceeded') {
      await pause(Math.max(1, refusal.retry.afterSeconds ?? 1) * 1000);
      continue;
    }
    return recordFailedLine(services, lineAdmission, refusal);
  }
}

/** A line transaction refused: by its line (recorded already: nothing to do), by the lease (another driver took over), or by a conflict (left for the chunk's next pass). */
function settleRefusedLine(error: TransactionRefused): void {
  if (error.refusedOps.includes('updateBatch') && !error.refusedOps.includes('putBatchLine')) throw new LeaseLost();
}

async function recordFailedLine(services: Services, line: BatchLineAdmission, error: ApiError): Promise<void> {
  try {
    await services.uow.commit(failedLineOps(line, error));
  } catch (refused) {
    if (refused instanceof TransactionRefused) return settleRefusedLine(refused);
    throw refused;
  }
}

/**
 * Cancel: the chunk begun is finished with canceled lines, every later line is counted canceled
 * at once (`stopped_at`), and the jobs still queued are canceled and released.
 */
async function stopAdmission(
  services: Services,
  batch: BatchRecord,
  token: string,
  cursor: number,
  end: number,
  recorded: ReadonlySet<number>,
  lines: readonly string[],
): Promise<'stopped'> {
  const begun = recorded.size > 0 ? range(cursor, end).filter((line) => !recorded.has(line)) : [];
  await recordCanceledLines(services, batch.id, token, begun, (line) => lines[line]!);
  const stoppedAt = recorded.size > 0 ? end : cursor;
  await commitOnLease(services, token, {
    kind: 'updateBatch',
    batchId: batch.id,
    set: { cursor: stoppedAt, stopped_at: stoppedAt },
    add: { canceled: batch.total - stoppedAt },
    expectLease: { token },
  });
  await cancelQueuedBatchJobs(services, batch.id, stoppedAt);
  return 'stopped';
}

/** Lines never admitted because of a cancel, each recorded as a canceled line (none with an outcome already). */
export async function recordCanceledLines(
  services: Services,
  batchId: string,
  token: string,
  lineNumbers: readonly number[],
  textOf: (line: number) => string,
): Promise<void> {
  for (const line of lineNumbers) {
    try {
      await services.uow.commit(
        batchLineOps(
          { batchId, line, customId: customIdOf(textOf(line)), leaseToken: token },
          { job_id: null, error: null },
          { canceled: 1 },
        ),
      );
    } catch (error) {
      if (error instanceof TransactionRefused) settleRefusedLine(error);
      else throw error;
    }
  }
}

async function commitOnLease(
  services: Services,
  token: string,
  op: Parameters<Services['uow']['commit']>[0][number],
): Promise<void> {
  try {
    await services.uow.commit([op]);
  } catch (error) {
    if (error instanceof TransactionRefused && error.refusedOps.includes('updateBatch'))
      throw new LeaseLost(`lease ${token} lost`);
    throw error;
  }
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from }, (_, i) => from + i);
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * The sweeper's part: drives every unfinished batch whose lease has run out, the crashed driver's
 * batch taken over from its cursor, a batch whose admission is over completed once settled.
 * Returns how many it drove.
 */
export async function sweepDueBatches(services: Services, readLine: LineReader, limit = 10): Promise<number> {
  const due = await services.batches.listDue(epochSeconds(services.clock), limit);
  let driven = 0;
  for (const batch of due) {
    let outcome: DriveOutcome;
    try {
      outcome = await driveBatch(services, batch.id, readLine);
    } catch (error) {
      // one broken batch (its input unreadable, a store failing) never stops the others: it is
      // logged, and looked at again a lease later instead of heading every sweep
      logFailure(services.log, 'batch could not be driven; the sweeper tries it again a lease later', error, {
        batch_id: batch.id,
      });
      await postponeDueBatch(services, batch.id).catch((postponing: unknown) =>
        logFailure(services.log, 'batch could not be postponed', postponing, { batch_id: batch.id }),
      );
      continue;
    }
    if (outcome !== 'busy') driven += 1;
    // a batch waiting on its jobs is looked at again a lease later
    if (outcome === 'finished') await postponeDueBatch(services, batch.id);
  }
  return driven;
}

async function postponeDueBatch(services: Services, batchId: string): Promise<void> {
  const now = epochSeconds(services.clock);
  await services.uow
    .commit([
      {
        kind: 'updateBatch',
        batchId,
        set: { lease_until: leaseEnd(services) },
        expectStatus: ['validating', 'running'],
        expectLease: { freeAt: now },
      },
    ])
    .catch((error: unknown) => {
      if (!(error instanceof TransactionRefused)) throw error;
    });
}
