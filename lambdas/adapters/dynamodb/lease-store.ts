import type { LeaseStore } from '../../domain/ports/leases.js';
import { documentSdk, dynamodbSdk } from '../aws-sdk.js';
import { keys } from './keys.js';
import type { Table } from './table.js';

const { DeleteCommand, PutCommand } = documentSdk;
const { ConditionalCheckFailedException } = dynamodbSdk;

/** One item per lease: a conditional put takes it, a conditional delete lets go. */
export class DynamoLeaseStore implements LeaseStore {
  constructor(private readonly table: Table) {}

  async take(name: string, token: string, untilMs: number, nowMs: number): Promise<boolean> {
    try {
      await this.table.doc.send(
        new PutCommand({
          TableName: this.table.name,
          Item: { ...keys.lease(name), token, until_ms: untilMs },
          ConditionExpression: 'attribute_not_exists(pk) OR until_ms <= :now',
          ExpressionAttributeValues: { ':now': nowMs },
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  async release(name: string, token: string): Promise<void> {
    try {
      await this.table.doc.send(
        new DeleteCommand({
          TableName: this.table.name,
          Key: keys.lease(name),
          ConditionExpression: '#token = :token',
          ExpressionAttributeNames: { '#token': 'token' },
          ExpressionAttributeValues: { ':token': token },
        }),
      );
    } catch (error) {
      // run out and taken by another run meanwhile: theirs now
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }
}
