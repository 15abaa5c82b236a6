import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { RateLimitCounter } from '../../domain/ports/rate-limits.js';
import { TABLE_DEFINITION } from './table-definition.js';
import type { Table } from './table.js';

/** One atomic ADD per hit; TTL removes spent windows an hour after they end. */
export class DynamoRateLimitCounter implements RateLimitCounter {
  constructor(private readonly table: Table) {}

  async hit(counterKey: string, expiresAt: number): Promise<number> {
    const out = await this.table.doc.send(
      new UpdateCommand({
        TableName: this.table.name,
        Key: { pk: `RL#${counterKey}`, sk: '#' },
        UpdateExpression: 'ADD hits :one SET #ttl = if_not_exists(#ttl, :ttl)',
        ExpressionAttributeNames: { '#ttl': TABLE_DEFINITION.ttlAttribute },
        ExpressionAttributeValues: { ':one': 1, ':ttl': expiresAt + 3600 },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return Number(out.Attributes?.hits ?? 1);
  }
}
