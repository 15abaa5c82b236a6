import type { JobRecord } from '../jobs/job.js';
import type { Services } from '../ports/services.js';

/** The task output a stage waits for; the record step reads the child itself, so this only names it. */
export function stageTaskOutput(child: Pick<JobRecord, 'id' | 'status'>): Record<string, unknown> {
  return { job_id: child.id, status: child.status };
}

/** Sends a settled child job's outcome to the task waiting for it: success only when it succeeded. */
export async function answerStageTask(services: Services, token: string, child: JobRecord): Promise<boolean> {
  if (child.status === 'succeeded') return services.orchestrator.sendTaskSuccess(token, stageTaskOutput(child));
  const cause = JSON.stringify({ job_id: child.id, status: child.status, error: child.error });
  return services.orchestrator.sendTaskFailure(token, 'StageFailed', cause);
}

/**
 * Called once a child job's settlement committed, in every runtime (worker, live completion,
 * sweeper). Reads the child again for its current token: a resumed pipeline may have re-attached
 * a new one since the caller read the job. A lost or late callback is harmless: the stage task
 * times out into the failure path, and a resumed pipeline finds the settled child itself.
 */
export async function notifyParentOfSettledChild(services: Services, settled: JobRecord): Promise<void> {
  if (!settled.parent_job_id) return;
  try {
    const child = (await services.jobs.get(settled.id)) ?? settled;
    if (!child.task_token) return;
    const delivered = await answerStageTask(services, child.task_token, child);
    if (!delivered)
      services.log.info('stage task no longer waiting', { job_id: child.id, parent_job_id: child.parent_job_id });
  } catch (error) {
    services.log.warn('could not answer the stage task', {
      job_id: settled.id,
      parent_job_id: settled.parent_job_id,
      error: String(error),
    });
  }
}
