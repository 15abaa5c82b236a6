import type { QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { JobRecord } from '../../domain/jobs/job.js';
import { documentSdk } from '../aws-sdk.js';
import { INDEX } from './keys.js';
import { itemsByKey, stripKeys, type Table } from './table.js';

const { QueryCommand } = documentSdk;

/**
 * A mode's jobs, by id (time-ordered), are listed from `gsi5`, which holds each job's keys and
 * what the job lists filter on: an inspection's item, updated at every stage start and record, and
 * every job at its settlement no longer rewrite a whole copy of the job on the index (DynamoDB
 * bills an index write by the entry's size, and none when no projected attribute changed). A
 * page's jobs are then read by key. Jobs written before `gsi5` existed are on `gsi1`, whole; both
 * are read and merged by id, so they list as before with no migration (docs/internals/cost.md).
 */
export interface JobSource {
  index: string;
  pkName: string;
  skName: string;
  /** its entries are keys and filter attributes only: the jobs themselves are read by key */
  lean: boolean;
}

export const JOB_SOURCES: readonly JobSource[] = [
  { index: INDEX.jobsOfOrgAndMode, pkName: 'gsi5pk', skName: 'gsi5sk', lean: true },
  { index: INDEX.byOrgAndMode, pkName: 'gsi1pk', skName: 'gsi1sk', lean: false },
];

/** One query of a source's partition: its entries as read (keys, and the job whole on `gsi1`). */
export async function queryJobSource(
  table: Table,
  source: JobSource,
  input: Omit<QueryCommandInput, 'TableName' | 'IndexName'>,
): Promise<{ entries: Record<string, unknown>[]; cursor: Record<string, unknown> | undefined }> {
  const out = await table.doc.send(new QueryCommand({ TableName: table.name, IndexName: source.index, ...input }));
  return { entries: out.Items ?? [], cursor: out.LastEvaluatedKey };
}

/**
 * The jobs of `entries` as they are now, in the entries' order: a lean entry's job read by key
 * (strongly consistent, 100 keys a call), a whole one as it is; a job deleted since is left out.
 */
export async function jobsOfEntries(
  table: Table,
  entries: readonly Record<string, unknown>[],
  lean: boolean,
): Promise<JobRecord[]> {
  if (!lean) return entries.map((entry) => stripKeys<JobRecord>(entry));
  const read = new Map<string, JobRecord>();
  for (const item of await itemsByKey(table, entries, { consistent: true }))
    read.set(String(item.pk), stripKeys<JobRecord>(item));
  return entries.flatMap((entry) => {
    const job = read.get(String(entry.pk));
    return job ? [job] : [];
  });
}
