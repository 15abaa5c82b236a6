import type { Services } from '../ports/services.js';
import type { JobRecord } from './job.js';

// `Svc-Deadline` (docs/internals/deadlines.md): the bounds of the header and the timer that enforces it. The
// timer is a delayed message on the work queue, consumed by the work-queue worker like any other.

export const DEADLINE_HEADER = 'Svc-Deadline';
export const MIN_DEADLINE_SECONDS = 1;
export const MAX_DEADLINE_SECONDS = 3600;
/** SQS delays a message by at most 15 minutes: a deadline further away is reached by sending the timer again when it fires early */
export const MAX_TIMER_DELAY_SECONDS = 900;

type Deadlined = Pick<JobRecord, 'id' | 'deadline_at_ms'>;

/** True once the job's deadline (if it has one) has come. */
export function deadlinePassed(job: Pick<JobRecord, 'deadline_at_ms'>, nowMs: number): boolean {
  return job.deadline_at_ms !== undefined && nowMs >= job.deadline_at_ms;
}

/** Whole seconds until the deadline, rounded up so the timer never fires before it, and capped at what SQS can delay. */
export function timerDelaySeconds(deadlineAtMs: number, nowMs: number): number {
  return Math.min(MAX_TIMER_DELAY_SECONDS, Math.max(0, Math.ceil((deadlineAtMs - nowMs) / 1000)));
}

/**
 * Sends the job's deadline timer: a message `{ job_id, timer: "deadline" }` delayed until the
 * deadline (or 15 minutes, whichever is sooner). Timers ride the fast lane, which has no
 * concurrency cap, so a backlog of slow work cannot hold them back. A job without a deadline sends nothing.
 */
export async function armDeadline(services: Services, job: Deadlined): Promise<void> {
  if (job.deadline_at_ms === undefined) return;
  await services.workQueues.fast.send(
    { job_id: job.id, timer: 'deadline' },
    timerDelaySeconds(job.deadline_at_ms, services.clock.nowMs()),
  );
}
