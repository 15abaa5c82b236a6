import type { JobRecord } from '../../domain/jobs/job.js';
import { laneOf } from '../../domain/jobs/work-lanes.js';
import type { Page } from '../../domain/kernel/page.js';
import type { DuePage, JobQuery, JobStore } from '../../domain/ports/jobs.js';
import { documentSdk, dynamodbSdk } from '../aws-sdk.js';
import { JOB_SOURCES, type JobSource, jobsOfEntries, queryJobSource } from './job-index.js';
import { INDEX, keys } from './keys.js';
import {
  andCondition,
  equalityFilter,
  newestFirst,
  newestFirstPage,
  newestFirstQuery,
  type PageFilter,
  type Partition,
} from './pages.js';
import { withStageItems } from './stage-items.js';
import { stripKeys, type Table } from './table.js';
import { TABLE_DEFINITION } from './table-definition.js';

const { QueryCommand, TransactWriteCommand, UpdateCommand } = documentSdk;
const { ConditionalCheckFailedException, TransactionCanceledException } = dynamodbSdk;

export function jobItem(job: JobRecord): Record<string, unknown> {
  return {
    [TABLE_DEFINITION.jobLaneAttribute]: laneOf(job),
    ...keys.job(job.id),
    gsi5pk: keys.jobsOfOrgAndMode(job.org_id, job.livemode),
    gsi5sk: job.id,
    gsi3pk: keys.activeShard(job.id),
    gsi3sk: keys.dueAt(Math.min(job.redrive_at, job.queue_deadline), job.id),
    ...job,
  };
}

/** Whether a job read by key still matches the list's filters (its index entry may be older than it). */
function matchesQuery(job: JobRecord, query: JobQuery): boolean {
  return (
    (query.status === undefined || job.status === query.status) &&
    (query.endpoint === undefined || job.endpoint === query.endpoint) &&
    (query.batchId === undefined || job.batch_id === query.batchId) &&
    (!query.topLevelOnly || job.parent_job_id === undefined)
  );
}

export class DynamoJobStore implements JobStore {
  constructor(private readonly table: Table) {}

  async get(id: string): Promise<JobRecord | null> {
    const item = await this.table.hot.getItem({ TableName: this.table.name, Key: keys.job(id), ConsistentRead: true });
    return item ? withStageItems(this.table, stripKeys<JobRecord>(item)) : null;
  }

  /** 100 keys a `BatchGetItem`: a batch's output file reads its jobs this way, not one call each. */
  async getMany(ids: readonly string[]): Promise<JobRecord[]> {
    return this.readMany(ids.map((id) => keys.job(id)));
  }

  /**
   * Newest first. Across both modes it merges the two modes' pages by id (ids are time-ordered),
   * so a job needs no organisation-wide index entry: every job write is one index write cheaper.
   */
  async list(query: JobQuery): Promise<Page<JobRecord>> {
    const page =
      query.livemode !== undefined
        ? await this.listMode(query, query.livemode)
        : newestFirst(await Promise.all([this.listMode(query, true), this.listMode(query, false)]), query.limit);
    return { ...page, items: await Promise.all(page.items.map((job) => withStageItems(this.table, job))) };
  }

  /** The mode's page: its lean index's and, for jobs written before it, `gsi1`'s, merged by id. */
  private async listMode(query: JobQuery, livemode: boolean): Promise<Page<JobRecord>> {
    const equal = equalityFilter({ status: query.status, endpoint: query.endpoint, batch_id: query.batchId });
    const filter = query.topLevelOnly
      ? andCondition(equal, 'attribute_not_exists(#parent)', { '#parent': 'parent_job_id' })
      : equal;
    const pages = await Promise.all(
      JOB_SOURCES.map((source) => {
        const partition: Partition = {
          pkName: source.pkName,
          skName: source.skName,
          value: keys.jobsOfOrgAndMode(query.orgId, livemode),
          read: { IndexName: source.index },
        };
        return source.lean
          ? this.leanPage(source, partition, query, filter)
          : newestFirstPage<JobRecord>(this.table, partition, query, filter);
      }),
    );
    return newestFirst(pages, query.limit);
  }

  /**
   * A newest-first page from the lean index: its entries filtered there (they hold what the filters
   * read), their jobs read by key and filtered again as they are now (the index lags the table), read
   * on until `limit` (plus one, for has_more) matched.
   */
  private async leanPage(
    source: JobSource,
    partition: Partition,
    query: JobQuery,
    filter: PageFilter | undefined,
  ): Promise<Page<JobRecord>> {
    const newest = newestFirstQuery(partition, query.startingAfter, filter);
    const jobs: JobRecord[] = [];
    let cursor: Record<string, unknown> | undefined;
    do {
      const read = await queryJobSource(this.table, source, {
        ...newest,
        Limit: Math.max(query.limit + 1 - jobs.length, 10),
        ExclusiveStartKey: cursor,
      });
      const now = await jobsOfEntries(this.table, read.entries, true);
      jobs.push(...now.filter((job) => matchesQuery(job, query)));
      cursor = read.cursor;
    } while (cursor && jobs.length <= query.limit);
    return { items: jobs.slice(0, query.limit), hasMore: jobs.length > query.limit };
  }

  /**
   * Each shard's index read from `after` on; the shards' keys merged in key order and cut at
   * `limit`, so every due key up to the page's last one has been read (a shard with more before it
   * would have filled the page itself): the next page starts after that key.
   */
  async listDue(nowSeconds: number, limit: number, after?: string | null): Promise<DuePage> {
    const upTo = keys.dueAt(nowSeconds, '~');
    if (after && after >= upTo) return { jobs: [], next: null };
    const perShard = await Promise.all(
      keys.activeShards().map((shard) =>
        this.table.doc.send(
          new QueryCommand({
            TableName: this.table.name,
            IndexName: INDEX.due,
            ...(after
              ? {
                  KeyConditionExpression: 'gsi3pk = :shard AND gsi3sk BETWEEN :after AND :now',
                  ExpressionAttributeValues: { ':shard': shard, ':after': after, ':now': upTo },
                }
              : {
                  KeyConditionExpression: 'gsi3pk = :shard AND gsi3sk <= :now',
                  ExpressionAttributeValues: { ':shard': shard, ':now': upTo },
                }),
            // BETWEEN includes `after` itself: one more, left out below
            Limit: after ? limit + 1 : limit,
          }),
        ),
      ),
    );
    const indexed = perShard
      .flatMap((out) => out.Items ?? [])
      .filter((item) => item.gsi3sk !== after)
      .sort((a, b) => (String(a.gsi3sk) < String(b.gsi3sk) ? -1 : 1));
    const page = indexed.slice(0, limit);
    // the index holds keys only: read the due jobs themselves, as they are now
    const due = await this.readMany(page.map((item) => ({ pk: item.pk, sk: item.sk })));
    return {
      jobs: due
        .filter((job) => job.status === 'queued' || job.status === 'processing')
        .sort((a, b) => a.redrive_at - b.redrive_at),
      // more were read than kept, or a shard stopped at its limit: more may follow the last key kept
      next:
        page.length && (indexed.length > limit || perShard.some((out) => out.LastEvaluatedKey))
          ? String(page.at(-1)!.gsi3sk)
          : null,
    };
  }

  /** Strongly consistent reads of many jobs (absent ones are left out), 100 keys a call. */
  private async readMany(itemKeys: readonly Record<string, unknown>[]): Promise<JobRecord[]> {
    const jobs = await jobsOfEntries(this.table, itemKeys, true);
    return Promise.all(jobs.map((job) => withStageItems(this.table, job)));
  }

  async markProcessing(
    id: string,
    startedAt: number,
    modelVersion: string,
    redriveAt: number,
    batchId?: string,
  ): Promise<JobRecord | null> {
    const update = {
      TableName: this.table.name,
      Key: keys.job(id),
      ConditionExpression: '#status = :queued',
      UpdateExpression:
        'SET #status = :processing, started_at = :started, model_version = :model, redrive_at = :redrive, gsi3sk = :due',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':queued': 'queued',
        ':processing': 'processing',
        ':started': startedAt,
        ':model': modelVersion,
        ':redrive': redriveAt,
        ':due': keys.dueAt(redriveAt, id),
      },
    };
    try {
      if (batchId) {
        // a batch's job: its batch counts it processing in the same transaction (docs/internals/batches.md)
        const batch = {
          TableName: this.table.name,
          Key: keys.batch(batchId),
          UpdateExpression: 'ADD #processing :one',
          ExpressionAttributeNames: { '#processing': 'processing' },
          ExpressionAttributeValues: { ':one': 1 },
        };
        await this.table.doc.send(new TransactWriteCommand({ TransactItems: [{ Update: update }, { Update: batch }] }));
        return this.get(id);
      }
      const out = await this.table.doc.send(new UpdateCommand({ ...update, ReturnValues: 'ALL_NEW' }));
      return out.Attributes ? withStageItems(this.table, stripKeys<JobRecord>(out.Attributes)) : null;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException || error instanceof TransactionCanceledException)
        return null;
      throw error;
    }
  }

  async postponeRedrive(id: string, redriveAt: number): Promise<void> {
    try {
      await this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: keys.job(id),
          ConditionExpression: 'attribute_exists(gsi3pk)',
          UpdateExpression: 'SET redrive_at = :redrive, gsi3sk = :due',
          ExpressionAttributeValues: { ':redrive': redriveAt, ':due': keys.dueAt(redriveAt, id) },
        }),
      );
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }
}
