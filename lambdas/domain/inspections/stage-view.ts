import { CATALOGUE } from '../catalogue/catalogue.js';
import { isTerminal, type JobRecord, type StageRecord } from '../jobs/job.js';
import type { PublicStage } from '../jobs/public-job.js';
import type { Services } from '../ports/services.js';

export type { PublicStage } from '../jobs/public-job.js';

/** Turns a stored result (with `{ file_key }` placeholders) into the public one (signed URLs). */
export type SignResult = (result: Record<string, unknown>) => Promise<Record<string, unknown>>;

/**
 * stages[] of an inspection job. A recorded stage is shown as recorded, its result inlined once it
 * succeeded. The stage in flight follows its child job (queued → processing) until it is recorded;
 * a child that settled but is not yet recorded still shows `processing`, so a reader never sees a
 * stage complete before its `inspection.stage_completed` event exists.
 */
export async function presentStages(services: Services, job: JobRecord, sign: SignResult): Promise<PublicStage[]> {
  return Promise.all(
    (job.stages ?? []).map(async (stage: StageRecord): Promise<PublicStage> => {
      // an inspection canceled or expired while queued never ran a stage
      let status = !stage.recorded && isTerminal(job.status) ? 'canceled' : stage.status;
      let startedAt = stage.started_at;
      if (!stage.recorded && stage.job_id && job.status === 'processing') {
        const child = await services.jobs.get(stage.job_id);
        if (child) {
          status = isTerminal(child.status) ? 'processing' : child.status;
          startedAt = child.started_at ?? startedAt;
        }
      }
      return {
        stage: stage.stage,
        endpoint: stage.endpoint,
        name: stage.name,
        model: CATALOGUE[stage.endpoint].model,
        status,
        started_at: startedAt,
        // a stage that never ran ended when its inspection did (as the stages canceled after a failure do)
        completed_at: stage.recorded ? stage.completed_at : isTerminal(job.status) ? job.completed_at : null,
        job_id: stage.job_id,
        error: stage.recorded && (stage.status === 'failed' || stage.status === 'expired') ? stage.error : null,
        ...(stage.recorded && stage.status === 'succeeded' && stage.result ? { result: await sign(stage.result) } : {}),
        skipped: stage.skipped,
      };
    }),
  );
}
