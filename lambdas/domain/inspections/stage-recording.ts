import type { JobRecord, ProducedFile, StageRecord } from '../jobs/job.js';
import type { Services } from '../ports/services.js';
import { TransactionRefused, type WriteOp } from '../ports/transactions.js';
import {
  commitAnnounced,
  type EventOp,
  enqueueEvents,
  isLastStage,
  stageCompletedEventOps,
} from '../webhooks/emission.js';

/**
 * Records one stage's final state on the inspection in ONE conditional transaction: the stage
 * with its files (an item of its own in the table), the stage counters, plus the event ops. Conditioned on the inspection still
 * `processing` and on exactly the earlier stages being recorded, so a stage is recorded (and
 * announced) once, in pipeline order, even when a resumed pipeline records it again.
 * Returns the inspection after the write, or null when the condition refused it.
 */
export async function recordStage(
  services: Services,
  inspection: JobRecord,
  stage: StageRecord,
  files: Record<string, ProducedFile> = {},
): Promise<JobRecord | null> {
  const index = stage.stage - 1;
  const recorded: StageRecord = { ...stage, recorded: true };
  const set: Partial<JobRecord> = {
    stages_recorded: index + 1,
    stages_started: Math.max(inspection.stages_started ?? 0, index + 1),
  };
  const after: JobRecord = {
    ...inspection,
    ...set,
    stages: (inspection.stages ?? []).map((existing, i) => (i === index ? recorded : existing)),
    files: { ...inspection.files, ...files },
  };
  // the stage's `inspection.stage_completed` is written in the very transaction that records it;
  // the last stage's is written by the inspection's settlement, which shows the inspection settled
  const eventOps = isLastStage(after, recorded) ? [] : await stageCompletedEventOps(services, after, recorded);
  const ops: WriteOp[] = [
    {
      kind: 'updateJob',
      jobId: inspection.id,
      expectStatus: ['processing'],
      expectFields: { stages_recorded: index },
      set,
      stage: { record: recorded, files },
      leavesQueue: false,
    },
  ];
  let undispatched: readonly EventOp[];
  try {
    undispatched = await commitAnnounced(services, ops, eventOps);
  } catch (error) {
    if (error instanceof TransactionRefused && error.refusedOps.includes('updateJob')) return null;
    throw error;
  }
  await enqueueEvents(services, undispatched);
  return after;
}
