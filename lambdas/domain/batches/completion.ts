import { type PublicJob, presentJob } from '../jobs/job-view.js';
import { epochSeconds } from '../kernel/clock.js';
import { inPool } from '../kernel/pool.js';
import type { Services } from '../ports/services.js';
import { TransactionRefused } from '../ports/transactions.js';
import { batchEventOp, commitAnnounced, type EventOp, enqueueEvents } from '../webhooks/emission.js';
import {
  BATCH_OUTPUT_MEDIA_TYPE,
  type BatchLineRecord,
  type BatchRecord,
  type BatchStatus,
  batchOutputKey,
  everyLineSettled,
  isBatchFinished,
} from './batch.js';
import { presentBatch } from './batch-view.js';
import { customIdOf, storedInputLines } from './input-file.js';
import { COMPLETION_LEASE_WAIT_MS, OutputLeaseBusy, withOutputLease } from './output-lease.js';

// The end of a batch: once every line is settled, the output file (one line per input line, in
// order) is written, then the batch's status and its `batch.completed` event in one transaction,
// all under the batch's output lease, so a redaction never races it (output-lease.ts).

/**
 * Completes the batch when every line is settled; anything else (or a batch completed already)
 * leaves it. The last settlements of a batch's jobs often try at once: one holds the output lease
 * and completes it, the others wait until they see it completed. One that waits out
 * `COMPLETION_LEASE_WAIT_MS` (a holder slower than that) leaves the batch to the holder, or to
 * the sweeper when the holder was a redaction.
 */
export async function completeBatchIfSettled(services: Services, batchId: string): Promise<void> {
  const batch = await services.batches.get(batchId);
  if (!batch || isBatchFinished(batch.status) || !everyLineSettled(batch)) return;
  const stillNeeded = async () => {
    const current = await services.batches.get(batchId);
    return current !== null && !isBatchFinished(current.status);
  };
  try {
    await withOutputLease(services, batchId, { ms: COMPLETION_LEASE_WAIT_MS, stillNeeded }, () =>
      completeUnderLease(services, batchId),
    );
  } catch (error) {
    if (!(error instanceof OutputLeaseBusy)) throw error;
    services.log.info('batch completion left to the output lease holder, or the sweeper', { batch_id: batchId });
  }
}

/** Per batch: the last check asked for, and whether it has yet to start (then a caller may join it). */
interface Checks {
  last: Promise<void>;
  started: boolean;
}

const checksOf = new WeakMap<Services, Map<string, Checks>>();

/**
 * `completeBatchIfSettled` after a job of the batch settled. A batch's jobs settle many at once (a
 * group's transaction ends them together): rather than each reading the batch, the callers share
 * checks, one at a time per batch, each joining a check that has not started yet, so every check
 * still reads the batch after the settlements of all who joined it.
 */
export function completeBatchAfterSettlement(services: Services, batchId: string): Promise<void> {
  let batches = checksOf.get(services);
  if (!batches) checksOf.set(services, (batches = new Map()));
  const previous = batches.get(batchId);
  if (previous && !previous.started) return previous.last;
  const checks: Checks = { last: Promise.resolve(), started: false };
  checks.last = (previous?.last ?? Promise.resolve())
    .catch(() => undefined)
    .then(() => {
      checks.started = true;
      return completeBatchIfSettled(services, batchId);
    });
  batches.set(batchId, checks);
  const forget = () => {
    if (batches.get(batchId) === checks) batches.delete(batchId);
  };
  checks.last.then(forget, forget);
  return checks.last;
}

async function completeUnderLease(services: Services, batchId: string): Promise<void> {
  // read again under the lease: what the jobs are now, redactions included, goes into the file
  const batch = await services.batches.get(batchId);
  if (!batch || isBatchFinished(batch.status) || !everyLineSettled(batch)) return;
  const outputKey = batchOutputKey(batch);
  // written before the status: a crash between leaves the batch running, and the next try writes the same file again
  await services.objects.put(
    outputKey,
    new TextEncoder().encode(await outputFile(services, batch)),
    BATCH_OUTPUT_MEDIA_TYPE,
  );
  const status = finalStatus(batch);
  const completed: BatchRecord = {
    ...batch,
    status,
    completed_at: epochSeconds(services.clock),
    output_key: outputKey,
    lease_token: null,
  };
  const event = batchEventOp(services, completed.org_id, completed.id, completed.livemode, {
    batch: await presentBatch(services, completed),
  });
  let undispatched: readonly EventOp[];
  try {
    undispatched = await commitAnnounced(
      services,
      [
        {
          kind: 'updateBatch',
          batchId,
          set: { status, completed_at: completed.completed_at, output_key: outputKey, lease_token: null },
          expectStatus: ['validating', 'running'],
          leavesDue: true,
        },
      ],
      [event],
    );
  } catch (error) {
    // completed by another settlement meanwhile
    if (error instanceof TransactionRefused && error.refusedOps.includes('updateBatch')) return;
    throw error;
  }
  await enqueueEvents(services, undispatched);
}

/** `canceled` when canceled, `failed` when no line succeeded, `succeeded` otherwise (failed lines are in the output file). */
function finalStatus(batch: BatchRecord): BatchStatus {
  if (batch.cancel_requested) return 'canceled';
  return batch.succeeded === 0 && batch.failed > 0 ? 'failed' : 'succeeded';
}

interface OutputLine {
  /** the input line it answers, 1-based as an editor counts: present on every line, even one that was not JSON */
  line: number;
  custom_id: string | null;
  job_id: string | null;
  status: PublicJob['status'] | 'failed' | 'canceled';
  result: PublicJob['result'];
  error: { type: string; code: string; message: string; param?: string | null } | null;
}

/** Jobs read per call when the output file is written: DynamoDB's `BatchGetItem` takes 100 keys. */
const JOBS_PER_READ = 100;

async function outputFile(services: Services, batch: BatchRecord): Promise<string> {
  const recorded = await services.batches.lines(batch.id, 0, batch.total);
  const byLine = new Map(recorded.map((line) => [line.line, line]));
  const jobs = new Map<string, PublicJob>();
  const jobIds = recorded.flatMap((line) => (line.job_id ? [line.job_id] : []));
  // read many at a time (100 keys a call on DynamoDB), a few calls at once
  const reads = Array.from({ length: Math.ceil(jobIds.length / JOBS_PER_READ) }, (_, n) =>
    jobIds.slice(n * JOBS_PER_READ, (n + 1) * JOBS_PER_READ),
  );
  await inPool(reads, 4, async (ids) => {
    for (const job of await services.jobs.getMany(ids)) jobs.set(job.id, await presentJob(services, job));
  });
  // lines never admitted (after a cancel) are read back for their custom_id
  const input = recorded.length < batch.total ? await storedInputLines(services, batch.input_object_key) : null;
  const out: string[] = [];
  for (let line = 0; line < batch.total; line += 1)
    out.push(JSON.stringify({ line: line + 1, ...outputLine(byLine.get(line), jobs, input?.[line]) }));
  return `${out.join('\n')}\n`;
}

function outputLine(
  line: BatchLineRecord | undefined,
  jobs: ReadonlyMap<string, PublicJob>,
  text: string | undefined,
): Omit<OutputLine, 'line'> {
  if (!line)
    return {
      custom_id: text === undefined ? null : customIdOf(text),
      job_id: null,
      status: 'canceled',
      result: null,
      error: null,
    };
  if (line.job_id) {
    const job = jobs.get(line.job_id);
    return {
      custom_id: line.custom_id,
      job_id: line.job_id,
      status: job?.status ?? 'queued',
      result: job?.result ?? null,
      error: job?.error ?? null,
    };
  }
  if (line.error) return { custom_id: line.custom_id, job_id: null, status: 'failed', result: null, error: line.error };
  return { custom_id: line.custom_id, job_id: null, status: 'canceled', result: null, error: null };
}
