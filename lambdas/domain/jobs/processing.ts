import { CATALOGUE, fixtureModelVersionOf, modelVersionOf } from '../catalogue/catalogue.js';
import { startInspection, superviseInspection } from '../inspections/supervision.js';
import { epochSeconds } from '../kernel/clock.js';
import { logFailure } from '../kernel/failure-log.js';
import { inPool } from '../kernel/pool.js';
import type { Services } from '../ports/services.js';
import { expirePastDeadline } from './deadline-expiry.js';
import { armDeadline, deadlinePassed } from './deadline-timer.js';
import { withInputHashes } from './input-hashes.js';
import { isTerminal, type JobRecord } from './job.js';
import { cancelQueuedJob, expireJob, settleJob, type WorkOutcome } from './settlement.js';
import { logJobTransition } from './transition-log.js';
import { enqueueJob, secondsUntilDue } from './work-lanes.js';

/** Runs a test-mode job to its outcome; supplied by the test-mode backend. */
export type TestBackend = (job: JobRecord) => Promise<WorkOutcome>;

export type ProcessResult =
  | 'deferred'
  | 'settled'
  | 'handed_to_inference_plane'
  | 'handed_to_orchestrator'
  | 'left_queued'
  | 'already_done'
  | 'expired'
  | 'not_found';

/**
 * Handles one work-queue message. Safe to run twice for the same job: every transition is
 * conditioned on the job's status, and a job found `processing` (a crash after pick-up)
 * is simply worked again.
 */
export async function processJob(services: Services, testBackend: TestBackend, jobId: string): Promise<ProcessResult> {
  let job = await services.jobs.get(jobId);
  if (!job) return 'not_found';
  // past its Svc-Deadline, whatever brought it here (a re-drive, a late pick-up): it will not be worked
  if (!isTerminal(job.status) && deadlinePassed(job, services.clock.nowMs()))
    return (await expirePastDeadline(services, job)) ? 'expired' : 'already_done';
  const now = epochSeconds(services.clock);
  if (job.status === 'queued') {
    if (now >= job.queue_deadline) return (await expireJob(services, job)) ? 'expired' : 'already_done';
    // a job steered `slow` stays queued until due, however its id reached the queue (a table stream cannot delay)
    const wait = secondsUntilDue(job, services.clock.nowMs());
    if (wait > 0) {
      await enqueueJob(services, job, wait);
      return 'deferred';
    }
  }
  // an inspection is run by its pipeline, in both modes; its stages come back here as child jobs.
  // A duplicate message of one already started changes nothing: the sweeper supervises running ones.
  if (job.endpoint === 'inspections') return job.status === 'queued' ? startInspection(services, job) : 'already_done';
  let pickedUp: { startedAt: number; modelVersion: string } | undefined;
  if (job.status === 'queued') {
    if (job.livemode) return handToInferencePlane(services, job);
    const modelVersion = fixtureModelVersionOf(CATALOGUE[job.endpoint]);
    if (job.test_scenario === 'slow') {
      // it runs for a while: visibly `processing` meanwhile
      const picked = await services.jobs.markProcessing(
        job.id,
        now,
        modelVersion,
        now + services.config.redriveAfterSeconds,
        job.batch_id,
      );
      if (!picked) return 'already_done';
      job = picked;
    } else {
      // a sandbox run finishes at once: the settlement writes the pick-up too (one write fewer), so the
      // job is never seen `processing`, and a crash before the settlement leaves it `queued` for the sweeper
      pickedUp = { startedAt: now, modelVersion };
      job = { ...job, status: 'processing', started_at: now, model_version: modelVersion };
    }
    logJobTransition(services, job, 'processing');
    services.faults.reach('processing.after_pick_up');
  }
  if (job.status !== 'processing') return 'already_done';
  if (job.livemode) return 'handed_to_inference_plane';
  const outcome = await testBackend(await withInputHashes(services, job));
  services.faults.reach('processing.after_backend');
  const settled = await settleJob(services, job, outcome, pickedUp);
  services.faults.reach('processing.after_settle');
  if (settled) return 'settled';
  // refused past the job's deadline: its end is the expiry, not this outcome
  if (deadlinePassed(job, services.clock.nowMs()))
    return (await expirePastDeadline(services, job)) ? 'expired' : 'already_done';
  return 'already_done';
}

async function handToInferencePlane(services: Services, job: JobRecord): Promise<ProcessResult> {
  const accepted = await services.inferencePlane.submit(await withInputHashes(services, job));
  if (!accepted) return 'left_queued';
  const now = epochSeconds(services.clock);
  // the inference plane owns a live job once accepted; the sweeper looks again only later
  const picked = await services.jobs.markProcessing(
    job.id,
    now,
    modelVersionOf(CATALOGUE[job.endpoint]),
    now + services.config.liveResubmitSeconds,
    job.batch_id,
  );
  if (picked) logJobTransition(services, picked, 'processing');
  return picked ? 'handed_to_inference_plane' : 'already_done';
}

/** Due jobs read at once; each page is driven before the next is read. */
const DUE_PAGE = 100;
/**
 * Due jobs driven at once. Each takes a few table writes and a queue send (tens of milliseconds),
 * so 16 drive well over 1,000 a minute (docs/internals/operations.md, "The sweeper") while the table and the
 * queue see a bounded burst, not the whole backlog at once.
 */
export const SWEEP_CONCURRENCY = 16;

export interface DueJobsSweep {
  expired: number;
  redriven: number;
  /** jobs whose driving failed (logged): still due, the next run tries them again */
  failed: number;
  /** true when `goOn` stopped the sweep with due jobs left for the next run */
  leftForNextRun: boolean;
}

/**
 * The sweeper: expires queued jobs past their deadline and re-sends unfinished test jobs
 * whose message may have been lost (a crash after admission or mid-processing, or a local
 * restart that emptied the in-memory queue). Pages through every job due by now (plus
 * `lookAheadSeconds`), `SWEEP_CONCURRENCY` at a time, until none is left or `goOn` says stop
 * (asked before each page). A job that fails is logged and left due; the others go on.
 */
export async function sweepDueJobs(
  services: Services,
  options: { goOn?: () => boolean; lookAheadSeconds?: number; concurrency?: number } = {},
): Promise<DueJobsSweep> {
  const now = epochSeconds(services.clock);
  const goOn = options.goOn ?? (() => true);
  const outcome: DueJobsSweep = { expired: 0, redriven: 0, failed: 0, leftForNextRun: false };
  let after: string | null = null;
  do {
    if (!goOn()) {
      outcome.leftForNextRun = true;
      break;
    }
    const page = await services.jobs.listDue(now + (options.lookAheadSeconds ?? 0), DUE_PAGE, after);
    await inPool(page.jobs, options.concurrency ?? SWEEP_CONCURRENCY, async (job) => {
      try {
        const driven = await sweepDueJob(services, job, now);
        if (driven !== 'nothing') outcome[driven] += 1;
      } catch (error) {
        outcome.failed += 1;
        logFailure(services.log, 'due job could not be driven; the next sweep tries it again', error, {
          job_id: job.id,
        });
      }
    });
    after = page.next;
  } while (after !== null);
  // jobs the sweeper found past their queue timeout: a steady non-zero count means nothing picks work up
  if (outcome.expired > 0) services.metrics.count('JobsPastTimeout', outcome.expired, { state: 'queued' });
  return outcome;
}

/** One due job: expired, re-driven, or looked at again later. */
async function sweepDueJob(
  services: Services,
  job: JobRecord,
  now: number,
): Promise<'expired' | 'redriven' | 'nothing'> {
  // the deadline timer should have expired it: a backstop for a lost timer (docs/internals/deadlines.md)
  if (deadlinePassed(job, services.clock.nowMs())) {
    return (await expirePastDeadline(services, job)) ? 'expired' : 'nothing';
  }
  // a job re-driven may have lost its timer with its message: arm it again (a duplicate timer finds the job settled)
  if (job.deadline_at_ms !== undefined) await armDeadline(services, job).catch(() => undefined);
  if (job.status === 'queued' && now >= job.queue_deadline) {
    services.faults.reach('expiry.before_commit');
    const expired = await expireJob(services, job);
    services.faults.reach('expiry.after_commit');
    return expired ? 'expired' : 'nothing';
  }
  if (job.endpoint === 'inspections') {
    if (job.status === 'processing') {
      return (await superviseInspection(services, job)) === 'resumed' ? 'redriven' : 'nothing';
    }
    // queued, whatever its mode: its work message starts the pipeline
    await services.jobs.postponeRedrive(
      job.id,
      Math.min(now + services.config.redriveAfterSeconds, job.queue_deadline),
    );
    await enqueueJob(services, job);
    return 'redriven';
  }
  if (job.livemode && job.status === 'processing') {
    return (await chaseInferencePlane(services, job, now)) ? 'redriven' : 'nothing';
  }
  const next =
    job.status === 'queued'
      ? Math.min(now + services.config.redriveAfterSeconds, job.queue_deadline)
      : now + services.config.redriveAfterSeconds;
  await services.jobs.postponeRedrive(job.id, next);
  if (job.livemode) {
    return (await handToInferencePlane(services, job)) !== 'left_queued' ? 'redriven' : 'nothing';
  }
  await enqueueJob(services, job, job.status === 'queued' ? secondsUntilDue(job, services.clock.nowMs()) : 0);
  return 'redriven';
}

/**
 * A live job the plane accepted but has not reported on: submitted again (the plane dedupes by
 * job id; a local restart may have lost it), and failed as `upstream_timeout` once it has been
 * processing longer than `liveProcessingTimeoutSeconds`, which releases its reservation.
 * Returns true when it was submitted again.
 */
async function chaseInferencePlane(services: Services, job: JobRecord, now: number): Promise<boolean> {
  if (now >= (job.started_at ?? job.created) + services.config.liveProcessingTimeoutSeconds) {
    services.metrics.count('JobsPastTimeout', 1, { state: 'processing' });
    await settleJob(services, job, {
      status: 'failed',
      error: {
        type: 'processing_error',
        code: 'upstream_timeout',
        message: 'The inference plane did not report a result in time.',
      },
    });
    return false;
  }
  await services.jobs.postponeRedrive(job.id, now + services.config.liveResubmitSeconds);
  return withInputHashes(services, job)
    .then((hashed) => services.inferencePlane.submit(hashed))
    .catch(() => false);
}

export async function cancelJob(services: Services, job: JobRecord): Promise<JobRecord | 'not_cancelable'> {
  if (job.status === 'canceled') return job;
  // a stage belongs to its inspection's pipeline: cancel the inspection (while queued) instead
  if (job.status !== 'queued' || job.parent_job_id) return 'not_cancelable';
  const canceled = await cancelQueuedJob(services, job);
  if (canceled) return canceled;
  const current = await services.jobs.get(job.id);
  if (current?.status === 'canceled') return current;
  return 'not_cancelable';
}
