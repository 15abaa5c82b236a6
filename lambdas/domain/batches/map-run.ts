import { epochSeconds } from '../kernel/clock.js';
import { randomBase58 } from '../kernel/ids.js';
import type { Services } from '../ports/services.js';
import { TransactionRefused } from '../ports/transactions.js';
import { isBatchFinished } from './batch.js';
import { cancelQueuedBatchJobs } from './cancel.js';
import { completeBatchIfSettled } from './completion.js';
import { admitBatchLines, LeaseLost, type LineReader, recordCanceledLines } from './driver.js';

// A batch admitted by a state machine run on AWS (statemachines/batch.ts, docs/internals/batches.md): a
// Distributed Map reads the input file from S3 and hands its lines, 40 to an item batch, to the
// same per-line admission the driver runs. The run holds the batch's lease from its start to its
// end, so the sweeper leaves the batch alone while it runs, and takes it over when the run fails.

/** The longest a run may take: 10,000 lines at the free plan's 1 line a second, and a margin. */
export const BATCH_RUN_SECONDS = 4 * 60 * 60;

/** Leases held by a state machine run start with this (a driver's are bare). */
export const RUN_LEASE_PREFIX = 'run_';

/** One line as the Distributed Map hands it over: its index in the file and its parsed JSON. */
export interface BatchItem {
  index: number;
  value: unknown;
}

/**
 * The longest line a run takes, in UTF-8 bytes: 40 of them fit one item batch (statemachines/batch.ts,
 * ITEM_BATCH_MAX_BYTES) under Step Functions' 256 KiB state limit. A call body is far shorter.
 */
export const MAX_RUN_LINE_BYTES = 4 * 1024;

/**
 * True when the state machine's JSONL reader takes the file item for item, so that an item's index
 * is its line number (every line one JSON value), and every item fits an item batch (at most
 * MAX_RUN_LINE_BYTES). Any other file is driven in process instead, by the sweeper on AWS, where a
 * line that does not parse is a failed line (`invalid_json`).
 */
export function readableAsItems(lines: readonly string[]): boolean {
  const encoder = new TextEncoder();
  return lines.every((line) => {
    if (line.trim() === '' || encoder.encode(line).length > MAX_RUN_LINE_BYTES) return false;
    try {
      JSON.parse(line);
      return true;
    } catch {
      return false;
    }
  });
}

/** Takes the batch's lease for a run, until the run's timeout has passed: null when someone holds it. */
export async function leaseForRun(services: Services, batchId: string): Promise<string | null> {
  const token = `${RUN_LEASE_PREFIX}${randomBase58(16)}`;
  const now = epochSeconds(services.clock);
  try {
    await services.uow.commit([
      {
        kind: 'updateBatch',
        batchId,
        set: {
          status: 'running',
          lease_token: token,
          lease_until: now + BATCH_RUN_SECONDS + services.config.batchLeaseSeconds,
        },
        expectStatus: ['validating', 'running'],
        expectLease: { freeAt: now },
      },
    ]);
    return token;
  } catch (error) {
    if (error instanceof TransactionRefused) return null;
    throw error;
  }
}

/** Lets go of a run's lease at once (the run failed or never started): the sweeper's next pass takes the batch over from its cursor. */
export async function releaseRunLease(services: Services, batchId: string, token: string): Promise<void> {
  try {
    await services.uow.commit([
      {
        kind: 'updateBatch',
        batchId,
        set: { lease_token: null, lease_until: epochSeconds(services.clock) },
        expectLease: { token },
      },
    ]);
  } catch (error) {
    // the lease is someone else's already
    if (!(error instanceof TransactionRefused)) throw error;
  }
}

export type ItemBatchOutcome = 'admitted' | 'canceled' | 'lease_lost' | 'finished';

/**
 * One item batch of the Distributed Map: its lines without an outcome yet admitted on the run's
 * lease (a retried item batch skips the ones it recorded), or, once the batch is canceled,
 * recorded as canceled lines.
 */
export async function admitItemBatch(
  services: Services,
  run: { batchId: string; leaseToken: string; items: readonly BatchItem[] },
  readLine: LineReader,
): Promise<ItemBatchOutcome> {
  const batch = await services.batches.get(run.batchId);
  if (!batch || isBatchFinished(batch.status)) return 'finished';
  if (batch.lease_token !== run.leaseToken) return 'lease_lost';
  if (run.items.length === 0) return 'admitted';
  const texts = new Map(run.items.map((item) => [item.index, JSON.stringify(item.value)]));
  const indexes = [...texts.keys()].sort((a, b) => a - b);
  const recorded = new Set(
    (await services.batches.lines(batch.id, indexes[0]!, indexes.at(-1)! + 1)).map((line) => line.line),
  );
  const pending = indexes.filter((line) => !recorded.has(line));
  const textOf = (line: number) => texts.get(line)!;
  try {
    if (batch.cancel_requested) {
      await recordCanceledLines(services, batch.id, run.leaseToken, pending, textOf);
      return 'canceled';
    }
    await admitBatchLines(services, batch, run.leaseToken, pending, textOf, readLine);
    return 'admitted';
  } catch (error) {
    if (error instanceof LeaseLost) return 'lease_lost';
    throw error;
  }
}

export type RunEnd = 'finished' | 'incomplete' | 'lease_lost';

/**
 * The run's last state: when every line has its outcome the batch is marked fully read (its
 * cursor at the end, the lease let go), a canceled batch's jobs admitted meanwhile are canceled,
 * and the batch completes once settled, exactly as after a driver. A line without an outcome
 * (`incomplete`) lets go of the lease at once, for the sweeper to admit.
 */
export async function finishRun(services: Services, batchId: string, token: string): Promise<RunEnd> {
  const batch = await services.batches.get(batchId);
  if (!batch || isBatchFinished(batch.status)) return 'finished';
  if (batch.lease_token !== token) return 'lease_lost';
  const recorded = await services.batches.lines(batchId, 0, batch.total);
  if (recorded.length < batch.total) {
    await releaseRunLease(services, batchId, token);
    return 'incomplete';
  }
  try {
    await services.uow.commit([
      {
        kind: 'updateBatch',
        batchId,
        set: {
          cursor: batch.total,
          lease_token: null,
          lease_until: epochSeconds(services.clock) + services.config.batchLeaseSeconds,
        },
        expectLease: { token },
      },
    ]);
  } catch (error) {
    if (error instanceof TransactionRefused) return 'lease_lost';
    throw error;
  }
  if (batch.cancel_requested) await cancelQueuedBatchJobs(services, batchId, batch.total);
  await completeBatchIfSettled(services, batchId);
  return 'finished';
}
