import { keys } from './keys.js';
import { dynamodbSdk } from '../aws-sdk.js';

const { TransactionCanceledException } = dynamodbSdk;

/** The items whose conditions refused a transaction (none when `error` is anything else). */
export function refusedItems(error: unknown): number[] {
  if (!(error instanceof TransactionCanceledException)) return [];
  return (error.CancellationReasons ?? []).flatMap((reason, i) => (reason.Code === 'ConditionalCheckFailed' ? [i] : []));
}

/** Whether `error` is a transaction refused by the condition of item `index` and of no other. */
export function refusedOnly(error: unknown, index: number): boolean {
  const refused = refusedItems(error);
  return refused.length === 1 && refused[0] === index;
}

/**
 * A transaction item that refuses the whole write unless the organisation exists: a token may name
 * an organisation that does not (or no longer does), and nothing should be created for it.
 */
export function organizationExists(tableName: string, orgId: string) {
  return { ConditionCheck: { TableName: tableName, Key: keys.organization(orgId), ConditionExpression: 'attribute_exists(pk)' } };
}
