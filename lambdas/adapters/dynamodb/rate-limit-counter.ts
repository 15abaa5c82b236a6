import type { RateLimitCounter } from '../../domain/ports/access.js';
import { documentSdk } from '../aws-sdk.js';
import type { Table } from './table.js';
import { TABLE_DEFINITION } from './table-definition.js';

const { UpdateCommand } = documentSdk;

/** TTL removes a spent window this long after it ends (correctness never waits on it: the window is in the key). */
export const RATE_LIMIT_TTL_SLACK_SECONDS = 3600;

export function rateLimitCounterKey(counterKey: string): { pk: string; sk: string } {
  return { pk: `RL#${counterKey}`, sk: '#' };
}

/** One atomic ADD per hit. */
export class DynamoRateLimitCounter implements RateLimitCounter {
  constructor(private readonly table: Table) {}

  async hit(counterKey: string, expiresAt: number): Promise<number> {
    const out = await this.table.doc.send(
      new UpdateCommand({
        TableName: this.table.name,
        Key: rateLimitCounterKey(counterKey),
        UpdateExpression: 'ADD hits :one SET #ttl = if_not_exists(#ttl, :ttl)',
        ExpressionAttributeNames: { '#ttl': TABLE_DEFINITION.ttlAttribute },
        ExpressionAttributeValues: { ':one': 1, ':ttl': expiresAt + RATE_LIMIT_TTL_SLACK_SECONDS },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return Number(out.Attributes?.hits ?? 1);
  }

  async read(counterKey: string): Promise<number> {
    // for response headers only: an eventually consistent read is half the price and good enough
    const item = await this.table.hot.getItem({
      TableName: this.table.name,
      Key: rateLimitCounterKey(counterKey),
      ProjectionExpression: 'hits',
    });
    return Number(item?.hits ?? 0);
  }
}
