import { keySpendOps } from '../access/spend-limits.js';
import { completeBatchAfterSettlement } from '../batches/completion.js';
import { CATALOGUE, chargeFor } from '../catalogue/catalogue.js';
import { notifyParentOfSettledChild } from '../inspections/child-settlement.js';
import { epochSeconds } from '../kernel/clock.js';
import { logFailure } from '../kernel/failure-log.js';
import { modeOf } from '../kernel/mode.js';
import { usageDate } from '../money/usage.js';
import type { Services } from '../ports/services.js';
import { TransactionRefused, type WriteOp } from '../ports/transactions.js';
import { commitAnnounced, type EventOp, enqueueEvents, settledJobEventOps } from '../webhooks/emission.js';
import { billedUnits } from './call-price.js';
import type { JobError, JobRecord, JobStatus, ProducedFile } from './job.js';
import { jobLedgerEntry } from './job-ledger.js';
import { commitBatchSettlement } from './settlement-groups.js';
import { logJobTransition } from './transition-log.js';

export type WorkOutcome =
  | {
      status: 'succeeded';
      result: Record<string, unknown>;
      files: Record<string, ProducedFile>;
      billableUnits: number;
      modelVersion?: string;
    }
  | { status: 'failed'; error: JobError; modelVersion?: string };

type SettledStatus = Exclude<JobStatus, 'queued' | 'processing'>;

interface Closing {
  from: readonly JobStatus[];
  /** an outcome of the work (succeeded, failed): refused once the job's `Svc-Deadline` has passed, so a late one charges nothing */
  beforeDeadline?: boolean;
  status: SettledStatus;
  charged: number;
  set: Partial<JobRecord>;
}

/**
 * One transaction closes the job, returns the unused reservation and writes the ledger.
 * It is conditioned on the job's status, so a repeated settlement changes nothing.
 * Returns the settled job, or null when the job had already left the expected status.
 */
async function close(services: Services, job: JobRecord, closing: Closing): Promise<JobRecord | null> {
  const now = epochSeconds(services.clock);
  const reserved = job.credits.reserved;
  const release = reserved - closing.charged;
  const set: Partial<JobRecord> = {
    ...closing.set,
    status: closing.status,
    completed_at: now,
    credits: { reserved, charged: closing.charged },
  };
  // an inspection's stage (child job) is billed through its inspection: no usage row, no ledger
  const child = Boolean(job.parent_job_id);
  const ops: WriteOp[] = [
    {
      kind: 'updateJob',
      jobId: job.id,
      expectStatus: closing.from,
      set,
      leavesQueue: true,
      ...(closing.beforeDeadline ? { expectDeadlineAfterMs: services.clock.nowMs() } : {}),
    },
  ];
  if (!child) {
    // the job is counted once, when it settles, on the row of the day it was created: admission
    // writes no usage row, so its transaction stays at the job, the money and the request's checks
    ops.push({
      kind: 'bumpUsage',
      orgId: job.org_id,
      date: usageDate(job.created),
      endpoint: job.endpoint,
      livemode: job.livemode,
      deltas: {
        requests: 1,
        [closing.status]: 1,
        billable_units: closing.status === 'succeeded' ? (set.billable_units ?? 0) : 0,
        credits_charged: closing.charged,
      },
    });
  }
  if (job.batch_id) ops.push(batchSettlementOp(job.batch_id, closing, reserved));
  if (closing.charged > 0) ops.push({ kind: 'appendLedger', entry: jobLedgerEntry(services, job, 'commit', 0) });
  if (release > 0) {
    ops.push({
      kind: 'moveBalance',
      orgId: job.org_id,
      livemode: job.livemode,
      delta: release,
      mustStayNonNegative: false,
    });
    ops.push({ kind: 'appendLedger', entry: jobLedgerEntry(services, job, 'release', release) });
    // the key's spend keeps what was charged: the released part frees room in the periods it was reserved in
    if (!child && job.api_key_id) ops.push(...keySpendOps(job.api_key_id, job.created, -release));
  }
  const settled = { ...job, ...set } as JobRecord;
  // the outbox: the event is committed with the settlement it announces
  const eventOps = await settledJobEventOps(services, settled);
  let undispatched: readonly EventOp[];
  try {
    // a batch's jobs settling at once share a transaction (settlement-groups.ts); a single call's goes alone
    undispatched =
      job.batch_id && !child
        ? await commitBatchSettlement(services, job.batch_id, job.id, ops, eventOps)
        : await commitAnnounced(services, ops, eventOps);
  } catch (error) {
    if (error instanceof TransactionRefused && error.refusedOps.includes('updateJob')) return null;
    throw error;
  }
  logJobTransition(services, settled, settled.status);
  if (!child) {
    const mode = modeOf(job.livemode);
    services.metrics.count('Settlements', 1, { outcome: closing.status, mode });
    if (closing.charged > 0) services.metrics.count('CreditsCharged', closing.charged, { mode });
  }
  services.faults.reach('settlement.after_commit');
  await enqueueEvents(services, undispatched);
  // the waiting stage of the parent inspection learns the outcome (both runtimes settle through here)
  if (child) await notifyParentOfSettledChild(services, settled);
  // the batch's last job completes it; should this fail, the sweeper completes it (docs/internals/batches.md)
  if (settled.batch_id)
    await completeBatchAfterSettlement(services, settled.batch_id).catch((error: unknown) =>
      logFailure(services.log, 'batch completion failed; the sweeper will complete it', error, {
        batch_id: settled.batch_id,
      }),
    );
  return settled;
}

/** The batch's counters moved with its job's settlement: the job leaves `processing` (or the queued rest) for its outcome, its credits from reserved to charged. */
function batchSettlementOp(batchId: string, closing: Closing, reserved: number): WriteOp {
  const outcome = closing.status === 'expired' ? 'failed' : closing.status;
  const fromProcessing = closing.from.includes('processing') ? { processing: -1 } : {};
  return {
    kind: 'updateBatch',
    batchId,
    add: { [outcome]: 1, ...fromProcessing, reserved: -reserved, charged: closing.charged },
  };
}

/**
 * Settles a `processing` job. With `pickedUp`, settles a job still `queued` whose work was done at
 * once (a sandbox run): the pick-up (`started_at`, `model_version`) is written by the same
 * transaction, so the job costs one write fewer; a concurrent cancel or a duplicate run still
 * loses the condition on `queued`. Past the job's `Svc-Deadline` it settles nothing (null): the
 * transaction is conditioned on the deadline too, and the job's end is its expiry (docs/internals/deadlines.md).
 */
export function settleJob(
  services: Services,
  job: JobRecord,
  outcome: WorkOutcome,
  pickedUp?: { startedAt: number; modelVersion: string },
): Promise<JobRecord | null> {
  const from: readonly JobStatus[] = pickedUp ? ['queued'] : ['processing'];
  const pickUp = pickedUp ? { started_at: pickedUp.startedAt, model_version: pickedUp.modelVersion } : {};
  const modelVersion = outcome.modelVersion ? { model_version: outcome.modelVersion } : {};
  if (outcome.status === 'succeeded') {
    const endpoint = CATALOGUE[job.endpoint];
    // a plane's report above what the inputs measure is capped at it (per-second metering)
    const billableUnits = billedUnits(endpoint, job.inputs, outcome.billableUnits);
    const charged = chargeFor(endpoint, billableUnits, job.credits.reserved);
    return close(services, job, {
      from,
      beforeDeadline: true,
      status: 'succeeded',
      charged,
      set: {
        ...pickUp,
        ...modelVersion,
        result: outcome.result,
        files: outcome.files,
        billable_units: billableUnits,
        error: null,
      },
    });
  }
  return close(services, job, {
    from,
    beforeDeadline: true,
    status: 'failed',
    charged: 0,
    set: { ...pickUp, ...modelVersion, result: null, error: outcome.error },
  });
}

export function expireJob(services: Services, job: JobRecord): Promise<JobRecord | null> {
  return close(services, job, {
    from: ['queued'],
    status: 'expired',
    charged: 0,
    set: {
      error: {
        type: 'processing_error',
        code: 'job_expired',
        message: 'The job was not picked up before its queue timeout.',
      },
    },
  });
}

/** A `Svc-Deadline` passed before the job settled (its own, or its inspection's): expired from wherever it stood, charged 0 (docs/internals/deadlines.md). */
export function expireAtDeadline(
  services: Services,
  job: JobRecord,
  deadlineSeconds: number,
): Promise<JobRecord | null> {
  return close(services, job, {
    from: ['queued', 'processing'],
    status: 'expired',
    charged: 0,
    set: {
      result: null,
      error: {
        type: 'processing_error',
        code: 'deadline_exceeded',
        message: `The job did not settle within its Svc-Deadline of ${deadlineSeconds} s.`,
      },
    },
  });
}

export function cancelQueuedJob(services: Services, job: JobRecord): Promise<JobRecord | null> {
  return close(services, job, { from: ['queued'], status: 'canceled', charged: 0, set: {} });
}
