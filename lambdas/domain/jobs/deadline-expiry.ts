import { cancelRemainingStages } from '../inspections/pipeline.js';
import { logFailure } from '../kernel/failure-log.js';
import type { Services } from '../ports/services.js';
import { armDeadline, deadlinePassed } from './deadline-timer.js';
import { isTerminal, type JobRecord } from './job.js';
import { expireAtDeadline } from './settlement.js';

// What happens when a job's `Svc-Deadline` comes before it settled (docs/internals/deadlines.md).

export type DeadlineTimerOutcome = 'not_found' | 'already_done' | 'rearmed' | 'expired';

/**
 * A deadline timer fired. A settled job is left alone; a deadline still ahead (more than the 15
 * minutes one SQS delay covers) sends the timer again; otherwise the job expires.
 */
export async function onDeadlineTimer(services: Services, jobId: string): Promise<DeadlineTimerOutcome> {
  const job = await services.jobs.get(jobId);
  if (!job) return 'not_found';
  if (isTerminal(job.status) || job.deadline_at_ms === undefined) return 'already_done';
  if (!deadlinePassed(job, services.clock.nowMs())) {
    await armDeadline(services, job);
    return 'rearmed';
  }
  return (await expirePastDeadline(services, job)) ? 'expired' : 'already_done';
}

/**
 * Expires an unsettled job whose deadline passed: status `expired`, error `deadline_exceeded`, its
 * whole reservation released and `job.failed` sent, in the one settlement transaction, which is
 * conditioned on the job still being queued or processing; a completion arriving later finds it
 * settled and changes nothing. An inspection's run is stopped first and its running stage expired
 * with it; a live job the inference plane holds is cancelled there. Null when it had settled meanwhile.
 */
export async function expirePastDeadline(services: Services, job: JobRecord): Promise<JobRecord | null> {
  const seconds = job.deadline_seconds ?? 0;
  if (job.endpoint === 'inspections' && job.status === 'processing') await stopInspection(services, job, seconds);
  const expired = await expireAtDeadline(services, job, seconds);
  if (!expired) return null;
  await cancelOnPlane(services, job);
  return expired;
}

/**
 * Stops the inspection's run (no further stage starts), expires the stage job in flight and records
 * every stage not yet recorded (the expired one as it is, the rest `canceled`) while the inspection
 * is still processing, so its stages read as the inspection does.
 */
async function stopInspection(services: Services, inspection: JobRecord, seconds: number): Promise<void> {
  await services.orchestrator
    .stopExecution({ inspection_id: inspection.id, attempt: inspection.execution_attempt ?? 0 }, 'DeadlineExceeded')
    .catch((error: unknown) => {
      logFailure(services.log, 'could not stop the inspection pipeline at its deadline', error, {
        job_id: inspection.id,
      });
    });
  for (const stage of inspection.stages ?? []) {
    if (stage.recorded || !stage.job_id) continue;
    const child = await services.jobs.get(stage.job_id);
    if (!child || isTerminal(child.status)) continue;
    if (await expireAtDeadline(services, child, seconds)) await cancelOnPlane(services, child);
  }
  await cancelRemainingStages(services, inspection.id);
}

/** A live job the plane had accepted is told to stop; a plane that does not hear it calls back later and changes nothing. */
async function cancelOnPlane(services: Services, job: JobRecord): Promise<void> {
  if (!job.livemode || job.status !== 'processing' || job.endpoint === 'inspections') return;
  await services.inferencePlane.cancel?.(job).catch((error: unknown) => {
    logFailure(services.log, 'could not tell the inference plane to stop a job past its deadline', error, {
      job_id: job.id,
    });
  });
}
