import { compareUsageRows, USAGE_COUNTERS, type UsageRow } from '../../domain/money/usage.js';
import type { UsageQuery, UsageStore } from '../../domain/ports/money.js';
import { documentSdk } from '../aws-sdk.js';
import { keys } from './keys.js';
import type { Table } from './table.js';

const { QueryCommand } = documentSdk;

/** Usage rows live in one partition per organisation, sorted by `date#mode#endpoint`: a date range is one Query. */
export class DynamoUsageStore implements UsageStore {
  constructor(private readonly table: Table) {}

  async list(query: UsageQuery): Promise<UsageRow[]> {
    const filters: string[] = [];
    const values: Record<string, unknown> = {
      ':p': keys.usageOfOrg(query.orgId),
      ':from': `${query.from}#`,
      ':to': `${query.to}#~`,
    };
    if (query.endpoint !== undefined) {
      filters.push('endpoint = :endpoint');
      values[':endpoint'] = query.endpoint;
    }
    if (query.livemode !== undefined) {
      filters.push('livemode = :livemode');
      values[':livemode'] = query.livemode;
    }
    const rows: UsageRow[] = [];
    let exclusiveStartKey: Record<string, unknown> | undefined;
    do {
      const out = await this.table.doc.send(
        new QueryCommand({
          TableName: this.table.name,
          KeyConditionExpression: 'pk = :p AND sk BETWEEN :from AND :to',
          ExpressionAttributeValues: values,
          ...(filters.length ? { FilterExpression: filters.join(' AND ') } : {}),
          ConsistentRead: true,
          ExclusiveStartKey: exclusiveStartKey,
        }),
      );
      for (const item of out.Items ?? []) rows.push(toRow(item));
      exclusiveStartKey = out.LastEvaluatedKey;
    } while (exclusiveStartKey);
    return rows.sort(compareUsageRows);
  }
}

function toRow(item: Record<string, unknown>): UsageRow {
  const counters = Object.fromEntries(USAGE_COUNTERS.map((counter) => [counter, Number(item[counter] ?? 0)]));
  return {
    date: String(item.date),
    endpoint: item.endpoint as UsageRow['endpoint'],
    livemode: item.livemode === true,
    ...counters,
  } as UsageRow;
}
