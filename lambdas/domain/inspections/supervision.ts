import { CATALOGUE, fixtureModelVersionOf, modelVersionOf } from '../catalogue/catalogue.js';
import type { JobRecord } from '../jobs/job.js';
import { jobLogFields, logJobTransition } from '../jobs/transition-log.js';
import { epochSeconds } from '../kernel/clock.js';
import type { Services } from '../ports/services.js';
import { TransactionRefused } from '../ports/transactions.js';
import { cancelRemainingStages, failInspection } from './pipeline.js';

/** A pipeline run that was lost (a local restart, a failed start) is started again at most this often, then failed. */
export const MAX_EXECUTION_ATTEMPTS = 3;

function executionOf(job: JobRecord) {
  return { inspection_id: job.id, attempt: job.execution_attempt ?? 0 };
}

/** How long the sweeper leaves a running pipeline alone before asking after it again. */
function nextLook(services: Services, now: number): number {
  return now + services.config.liveResubmitSeconds;
}

/**
 * The work-queue message of an admitted inspection: it leaves the queue (`processing`) and its
 * pipeline starts. A crash between the two leaves a processing inspection without a run, which
 * the sweeper finds and resumes.
 */
export async function startInspection(
  services: Services,
  job: JobRecord,
): Promise<'handed_to_orchestrator' | 'already_done'> {
  const now = epochSeconds(services.clock);
  const picked = await services.jobs.markProcessing(
    job.id,
    now,
    job.livemode ? modelVersionOf(CATALOGUE.inspections) : fixtureModelVersionOf(CATALOGUE.inspections),
    nextLook(services, now),
  );
  if (!picked) return 'already_done';
  logJobTransition(services, picked, 'processing');
  await services.orchestrator.start(executionOf(picked)).catch((error: unknown) => {
    services.log.warn('could not start the inspection pipeline; the sweeper will resume it', {
      ...jobLogFields(job),
      error: String(error),
    });
  });
  return 'handed_to_orchestrator';
}

/** Fails a processing inspection whose pipeline is gone: remaining stages canceled, reservation released. */
async function failCleanly(services: Services, job: JobRecord, reason: string): Promise<void> {
  services.log.warn('inspection pipeline lost; failing the inspection', { ...jobLogFields(job), reason });
  await cancelRemainingStages(services, job.id);
  await failInspection(services, job.id, { Error: 'ExecutionLost', Cause: reason });
}

/**
 * The sweeper's look at a processing inspection (and the worker's, when its message is re-driven).
 * A running pipeline is left alone. One this orchestrator does not know (the local runtime
 * restarted, or the start was lost) is started again as a new attempt: stages already recorded
 * answer at once and the stage in flight re-attaches to its child job, so the run resumes where it
 * stopped. A pipeline that ended while its inspection is still processing, or one lost too often,
 * is failed cleanly, so nothing stays processing forever and no credits are held.
 */
export async function superviseInspection(
  services: Services,
  job: JobRecord,
): Promise<'running' | 'resumed' | 'failed'> {
  const now = epochSeconds(services.clock);
  const state = await services.orchestrator.describe(executionOf(job));
  if (state === 'running') {
    await services.jobs.postponeRedrive(job.id, nextLook(services, now));
    return 'running';
  }
  const attempt = job.execution_attempt ?? 0;
  if (state !== 'unknown' || attempt + 1 >= MAX_EXECUTION_ATTEMPTS) {
    await failCleanly(
      services,
      job,
      state === 'unknown'
        ? `pipeline lost ${attempt + 1} times`
        : `pipeline ${state} while the inspection was processing`,
    );
    return 'failed';
  }
  try {
    await services.uow.commit([
      {
        kind: 'updateJob',
        jobId: job.id,
        expectStatus: ['processing'],
        expectFields: { execution_attempt: attempt },
        set: { execution_attempt: attempt + 1 },
        leavesQueue: false,
      },
    ]);
  } catch (error) {
    // settled, or another sweeper resumed it first
    if (error instanceof TransactionRefused) return 'running';
    throw error;
  }
  await services.jobs.postponeRedrive(job.id, nextLook(services, now));
  await services.orchestrator.start({ inspection_id: job.id, attempt: attempt + 1 });
  services.log.info('inspection pipeline resumed', { job_id: job.id, attempt: attempt + 1 });
  return 'resumed';
}
