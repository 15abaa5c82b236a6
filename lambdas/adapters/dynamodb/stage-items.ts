import type { JobRecord, ProducedFile, StageRecord } from '../../domain/jobs/job.js';
import { documentSdk } from '../aws-sdk.js';
import { keys } from './keys.js';
import type { Table } from './table.js';

const { BatchWriteCommand, QueryCommand } = documentSdk;

/**
 * An inspection's stages, each an item of its own beside the inspection (same partition): a stage
 * is written once when it starts and once when it is recorded, and the inspection item keeps only
 * its counters. Writing the stage into the inspection instead was billed for the whole inspection
 * (every stage so far, with results and files) at every stage, and again on its `gsi1` entry
 * (docs/internals/cost.md). The inspection item's own `stages` is the plan written at admission; a stage
 * item replaces its entry. Inspections written before stages had items have none, and read as
 * they were stored.
 */
interface StageItem {
  stage: StageRecord;
  files: Record<string, ProducedFile>;
}

export function stageItem(jobId: string, record: StageRecord, files: Record<string, ProducedFile>) {
  return { ...keys.stage(jobId, record.stage), stage: record, files };
}

/** Whether the job may have stage items: an inspection with a stage started (redaction folds them back in). */
function hasStageItems(job: JobRecord): boolean {
  return job.stages !== undefined && (job.stages_started ?? 0) > 0 && job.redacted_at === undefined;
}

async function stageItemsOf(table: Table, jobId: string): Promise<StageItem[]> {
  const { pk, skPrefix } = keys.stagesOf(jobId);
  const items: StageItem[] = [];
  let cursor: Record<string, unknown> | undefined;
  do {
    const out = await table.doc.send(
      new QueryCommand({
        TableName: table.name,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix },
        ConsistentRead: true,
        ...(cursor ? { ExclusiveStartKey: cursor } : {}),
      }),
    );
    items.push(...((out.Items ?? []) as StageItem[]));
    cursor = out.LastEvaluatedKey;
  } while (cursor);
  return items;
}

/** The job as the domain knows it: an inspection's stage items put in place, their files added. */
export async function withStageItems(table: Table, job: JobRecord): Promise<JobRecord> {
  if (!hasStageItems(job)) return job;
  const items = await stageItemsOf(table, job.id);
  if (items.length === 0) return job;
  const byNumber = new Map(items.map((item) => [item.stage.stage, item]));
  return {
    ...job,
    stages: job.stages!.map((stage) => byNumber.get(stage.stage)?.stage ?? stage),
    files: Object.assign({}, job.files, ...items.map((item) => item.files)),
  };
}

/** Deletes a redacted inspection's stage items (the redacted inspection item holds every stage, without results). */
export async function deleteStageItems(table: Table, job: JobRecord): Promise<void> {
  const stageKeys = (job.stages ?? []).map((stage) => keys.stage(job.id, stage.stage));
  for (let start = 0; start < stageKeys.length; start += 25) {
    let pending: Record<string, unknown>[] | undefined = stageKeys
      .slice(start, start + 25)
      .map((Key) => ({ DeleteRequest: { Key } }));
    while (pending?.length) {
      const out = await table.doc.send(new BatchWriteCommand({ RequestItems: { [table.name]: pending as never } }));
      pending = out.UnprocessedItems?.[table.name] as Record<string, unknown>[] | undefined;
      // items left unprocessed mean the table is busy: give it a moment
      if (pending?.length) await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
