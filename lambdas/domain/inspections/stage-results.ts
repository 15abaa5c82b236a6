import type { JobError, JobRecord, ProducedFile, StageRecord } from '../jobs/job.js';

function isFileReference(value: unknown): value is { file_key: string } {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    typeof (value as { file_key?: unknown }).file_key === 'string' &&
    Object.keys(value).length === 1
  );
}

function prefixRefs(value: unknown, prefix: string): unknown {
  if (isFileReference(value)) return { file_key: `${prefix}.${value.file_key}` };
  if (Array.isArray(value)) return value.map((item) => prefixRefs(item, prefix));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, prefixRefs(v, prefix)]));
  return value;
}

/**
 * A settled child job as its stage: status, times and error mirror the child; a result is kept
 * only on success, with its files re-keyed `<stage>.<key>` so eight stages' files can share the
 * inspection's `files` map (the presenter signs them from there).
 */
export function stageFromChild(
  stage: StageRecord,
  child: JobRecord,
): { stage: StageRecord; files: Record<string, ProducedFile> } {
  const succeeded = child.status === 'succeeded' && child.result !== null;
  const files = succeeded
    ? Object.fromEntries(Object.entries(child.files ?? {}).map(([key, file]) => [`${stage.name}.${key}`, file]))
    : {};
  return {
    stage: {
      ...stage,
      status: child.status,
      started_at: child.started_at ?? stage.started_at,
      completed_at: child.completed_at,
      job_id: child.id,
      error: child.status === 'failed' || child.status === 'expired' ? child.error : null,
      result: succeeded ? (prefixRefs(child.result, stage.name) as Record<string, unknown>) : null,
    },
    files,
  };
}

/** The inspection's own result: every stage's result under its name (null when skipped), plus a summary. */
export function aggregateResult(stages: readonly StageRecord[]): Record<string, unknown> {
  return {
    stages: Object.fromEntries(stages.map((stage) => [stage.name, stage.status === 'succeeded' ? stage.result : null])),
    stages_succeeded: stages.filter((stage) => stage.status === 'succeeded').length,
    stages_skipped: stages.filter((stage) => stage.skipped).map((stage) => stage.name),
  };
}

/** A failed stage's error as its inspection reports it, naming the stage. */
export function failedStageError(stage: Pick<StageRecord, 'name' | 'endpoint'>, error: JobError): JobError {
  return {
    type: error.type,
    code: error.code,
    message: `Stage ${stage.name} (${stage.endpoint}) failed: ${error.message}`,
  };
}
