import type { BatchLineRecord, BatchRecord } from '../../domain/batches/batch.js';
import type { Page } from '../../domain/kernel/page.js';
import type { BatchQuery, BatchStore } from '../../domain/ports/batches.js';
import { documentSdk, dynamodbSdk } from '../aws-sdk.js';
import { INDEX, keys } from './keys.js';
import { allItems, newestFirstPage } from './pages.js';
import { stripKeys, type Table } from './table.js';

const { GetCommand, QueryCommand, UpdateCommand } = documentSdk;
const { ConditionalCheckFailedException } = dynamodbSdk;

/** A batch item: listed per organisation and mode (gsi1), and on the due index while unfinished. */
export function batchItem(batch: BatchRecord): Record<string, unknown> {
  return {
    ...keys.batch(batch.id),
    gsi1pk: keys.batchesOfOrgAndMode(batch.org_id, batch.livemode),
    gsi1sk: batch.id,
    gsi3pk: keys.batchesDue(),
    gsi3sk: keys.dueAt(batch.lease_until, batch.id),
    ...batch,
  };
}

export function batchLineItem(line: BatchLineRecord): Record<string, unknown> {
  return { ...keys.batchLine(line.batch_id, line.line), ...line };
}

export class DynamoBatchStore implements BatchStore {
  constructor(private readonly table: Table) {}

  async get(id: string): Promise<BatchRecord | null> {
    const out = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: keys.batch(id), ConsistentRead: true }),
    );
    if (!out.Item) return null;
    const { output_lease_token: _token, output_lease_until_ms: _until, ...batch } = out.Item;
    return stripKeys<BatchRecord>(batch);
  }

  list(query: BatchQuery): Promise<Page<BatchRecord>> {
    const value = keys.batchesOfOrgAndMode(query.orgId, query.livemode);
    return newestFirstPage<BatchRecord>(
      this.table,
      { pkName: 'gsi1pk', skName: 'gsi1sk', value, read: { IndexName: INDEX.byOrgAndMode } },
      query,
    );
  }

  async lines(batchId: string, from: number, to: number): Promise<BatchLineRecord[]> {
    if (to <= from) return [];
    return allItems<BatchLineRecord>(this.table, {
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: {
        ':pk': keys.batch(batchId).pk,
        ':from': keys.batchLine(batchId, from).sk,
        ':to': keys.batchLine(batchId, to - 1).sk,
      },
      ConsistentRead: true,
    });
  }

  async listDue(nowSeconds: number, limit: number): Promise<BatchRecord[]> {
    const out = await this.table.doc.send(
      new QueryCommand({
        TableName: this.table.name,
        IndexName: INDEX.due,
        KeyConditionExpression: 'gsi3pk = :pk AND gsi3sk <= :now',
        ExpressionAttributeValues: { ':pk': keys.batchesDue(), ':now': keys.dueAt(nowSeconds, '~') },
        Limit: limit,
      }),
    );
    const batches = await Promise.all(
      (out.Items ?? []).map((item) => this.get(String(item.pk).slice('BATCH#'.length))),
    );
    return batches.filter((batch): batch is BatchRecord => batch !== null);
  }

  /** Two attributes on the batch item, outside the record: a conditional update takes them, a conditional REMOVE lets go. */
  async takeOutputLease(batchId: string, token: string, untilMs: number, nowMs: number): Promise<boolean> {
    try {
      await this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: keys.batch(batchId),
          ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(#until) OR #until <= :now)',
          UpdateExpression: 'SET #token = :token, #until = :until',
          ExpressionAttributeNames: { '#token': 'output_lease_token', '#until': 'output_lease_until_ms' },
          ExpressionAttributeValues: { ':token': token, ':until': untilMs, ':now': nowMs },
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  async releaseOutputLease(batchId: string, token: string): Promise<void> {
    try {
      await this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: keys.batch(batchId),
          ConditionExpression: '#token = :token',
          UpdateExpression: 'REMOVE #token, #until',
          ExpressionAttributeNames: { '#token': 'output_lease_token', '#until': 'output_lease_until_ms' },
          ExpressionAttributeValues: { ':token': token },
        }),
      );
    } catch (error) {
      // run out and taken by another meanwhile: theirs now
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }
}
