import { dynamodbSdk, dynamodbUtil } from '../aws-sdk.js';
import { keys } from './keys.js';

const { TransactionCanceledException } = dynamodbSdk;

/**
 * The items whose conditions refused a transaction (none when `error` is anything else), each with
 * the item as it was when the item asked for it (`ReturnValuesOnConditionCheckFailure`).
 */
export function refusedItems(error: unknown): { index: number; current?: Record<string, unknown> }[] {
  if (!(error instanceof TransactionCanceledException)) return [];
  return (error.CancellationReasons ?? []).flatMap((reason, index) => {
    if (reason.Code !== 'ConditionalCheckFailed') return [];
    // attribute values, whichever client sent the transaction (the document client does not unmarshal them)
    return [{ index, ...(reason.Item ? { current: dynamodbUtil.unmarshall(reason.Item) } : {}) }];
  });
}

/** Whether `error` is a transaction refused by the condition of item `index` and of no other. */
export function refusedOnly(error: unknown, index: number): boolean {
  const refused = refusedItems(error);
  return refused.length === 1 && refused[0]!.index === index;
}

/**
 * A transaction item that refuses the whole write unless the organisation exists: a token may name
 * an organisation that does not (or no longer does), and nothing should be created for it.
 */
export function organizationExists(tableName: string, orgId: string) {
  return {
    ConditionCheck: {
      TableName: tableName,
      Key: keys.organization(orgId),
      ConditionExpression: 'attribute_exists(pk)',
    },
  };
}
