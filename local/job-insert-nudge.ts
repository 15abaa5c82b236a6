import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { keys } from '../lambdas/adapters/dynamodb/keys.js';

/** The partition key's prefix of a job's items (the job stream's Pipes filter on it). */
const JOB_KEY_PREFIX = keys.job('').pk;

type Item = Record<string, unknown> | undefined;

/** A key attribute as the document client holds it (a string) or as the wire holds it (`{ S }`). */
function stringOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  const wire = value as { S?: unknown } | undefined;
  return typeof wire?.S === 'string' ? wire.S : undefined;
}

function isJobItem(item: Item): boolean {
  return stringOf(item?.pk)?.startsWith(JOB_KEY_PREFIX) ?? false;
}

/** Whether a DynamoDB command puts an item of a job, which may be an insert the table's stream carries to a Pipe. */
export function putsJobItem(commandName: string, input: Record<string, unknown>): boolean {
  switch (commandName) {
    case 'PutItemCommand':
      return isJobItem(input.Item as Item);
    case 'TransactWriteItemsCommand':
      return ((input.TransactItems ?? []) as Array<{ Put?: { Item?: Item } }>).some((entry) =>
        isJobItem(entry.Put?.Item),
      );
    case 'BatchWriteItemCommand':
      return Object.values((input.RequestItems ?? {}) as Record<string, Array<{ PutRequest?: { Item?: Item } }>>).some(
        (requests) => requests.some((request) => isJobItem(request.PutRequest?.Item)),
      );
    default:
      return false;
  }
}

/**
 * Calls `nudge` after each successful write of `client` that puts a job's item, so the local job
 * stream reads DynamoDB Local's stream at once instead of at its next idle poll. The job still
 * reaches its queue only through the stream and the Pipe: this shortens the wait, it sends nothing.
 */
export function nudgeOnJobPuts(client: DynamoDBClient, nudge: () => void): void {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const output = await next(args);
      if (putsJobItem(context.commandName ?? '', args.input as Record<string, unknown>)) nudge();
      return output;
    },
    { step: 'initialize', name: 'jobStreamNudge' },
  );
}
