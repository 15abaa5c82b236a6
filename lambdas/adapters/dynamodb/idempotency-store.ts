import type { IdempotencyRecord, IdempotencyStore, StoredResponse } from '../../domain/ports/access.js';
import { documentSdk, dynamodbSdk } from '../aws-sdk.js';
import { keys } from './keys.js';
import { stripKeys, type Table } from './table.js';
import { TABLE_DEFINITION } from './table-definition.js';

const { ConditionalCheckFailedException } = dynamodbSdk;
const { DeleteCommand, GetCommand, PutCommand, UpdateCommand } = documentSdk;

export class DynamoIdempotencyStore implements IdempotencyStore {
  constructor(private readonly table: Table) {}

  async claim(record: IdempotencyRecord, now: number): Promise<IdempotencyRecord | null> {
    const key = keys.idempotency(record.scope_key);
    try {
      await this.table.doc.send(
        new PutCommand({
          TableName: this.table.name,
          Item: { ...key, ...record, [TABLE_DEFINITION.ttlAttribute]: record.expires_at + 3600 },
          // free, expired, or held by a request whose lock ran out
          ConditionExpression:
            'attribute_not_exists(pk) OR expires_at <= :now OR (#status = :in_progress AND lock_expires_at <= :now)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':now': now, ':in_progress': 'in_progress' },
        }),
      );
      return null;
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      const out = await this.table.doc.send(
        new GetCommand({ TableName: this.table.name, Key: key, ConsistentRead: true }),
      );
      // released between our write and our read: report a busy key, the client retries
      return out.Item
        ? withStoredResponse(stripKeys<StoredRecord>(out.Item))
        : { ...record, lock_token: '', status: 'in_progress' };
    }
  }

  async complete(scopeKey: string, lockToken: string, response: StoredResponse): Promise<void> {
    try {
      await this.table.doc.send(
        new UpdateCommand(completeIdempotencyUpdate(this.table.name, scopeKey, lockToken, response)),
      );
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }

  async release(scopeKey: string, lockToken: string): Promise<void> {
    try {
      await this.table.doc.send(
        new DeleteCommand({
          TableName: this.table.name,
          Key: keys.idempotency(scopeKey),
          // a response the admission transaction already stored must survive a later crash
          ConditionExpression: 'lock_token = :token AND #status = :in_progress',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':token': lockToken, ':in_progress': 'in_progress' },
        }),
      );
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }
}

/**
 * The response's body is kept as its JSON text: a DynamoDB map does not keep key order, and a
 * replay must answer the very bytes the first answer had. (Responses stored as a map before are
 * still read.)
 */
interface StoredItemResponse {
  status: number;
  contentType: string;
  body_json?: string;
  body?: unknown;
}

type StoredRecord = Omit<IdempotencyRecord, 'response'> & { response: StoredItemResponse | null };

function withStoredResponse(record: StoredRecord): IdempotencyRecord {
  const stored = record.response;
  if (!stored) return { ...record, response: null };
  const body = stored.body_json !== undefined ? (JSON.parse(stored.body_json) as unknown) : stored.body;
  return { ...record, response: { status: stored.status, contentType: stored.contentType, body } };
}

function storedItemResponse(response: StoredResponse): StoredItemResponse {
  return { status: response.status, contentType: response.contentType, body_json: JSON.stringify(response.body) };
}

/** Shared by the standalone update and the admission transaction. */
export function completeIdempotencyUpdate(
  tableName: string,
  scopeKey: string,
  lockToken: string,
  response: StoredResponse,
  settlingUntil?: number,
) {
  const settling = settlingUntil !== undefined;
  return {
    TableName: tableName,
    Key: keys.idempotency(scopeKey),
    UpdateExpression: settling
      ? 'SET #status = :completed, #response = :response, settling_until = :until'
      : 'SET #status = :completed, #response = :response REMOVE settling_until',
    ConditionExpression: 'lock_token = :token',
    ExpressionAttributeNames: { '#status': 'status', '#response': 'response' },
    ExpressionAttributeValues: {
      ':completed': 'completed',
      ':response': storedItemResponse(response),
      ':token': lockToken,
      ...(settling ? { ':until': settlingUntil } : {}),
    },
  };
}
