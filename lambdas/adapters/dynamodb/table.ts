import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { BatchGetCommandOutput, DynamoDBDocumentClient as DocumentClient } from '@aws-sdk/lib-dynamodb';
import { documentSdk } from '../aws-sdk.js';
import type { HotPathCalls } from './hot-path-calls.js';
import { TABLE_DEFINITION } from './table-definition.js';

const { BatchGetCommand, DynamoDBDocumentClient } = documentSdk;

export interface Table {
  doc: DocumentClient;
  /** every job's transactions and reads by key, off the document client (`hot-path-calls.ts`) */
  hot: HotPathCalls;
  name: string;
}

export function documentClient(client: DynamoDBClient): DocumentClient {
  return DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
}

/** Strips the storage keys from an item, leaving the domain record. */
export function stripKeys<T>(item: Record<string, unknown>): T {
  const {
    pk: _pk,
    sk: _sk,
    gsi1pk: _a,
    gsi1sk: _b,
    gsi2pk: _c,
    gsi2sk: _d,
    gsi3pk: _e,
    gsi3sk: _f,
    gsi4pk: _g,
    gsi4sk: _h,
    gsi5pk: _i,
    gsi5sk: _j,
    [TABLE_DEFINITION.jobLaneAttribute]: _lane,
    ...record
  } = item;
  return record as T;
}

/**
 * The items whose `pk` and `sk` the entries of `keys` carry, read by key 100 at a time (BatchGetItem's limit), keys left
 * unprocessed read again; an item no longer there is simply absent from the result.
 */
export async function itemsByKey(
  table: Table,
  keys: readonly Record<string, unknown>[],
  { consistent }: { consistent: boolean },
): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  for (let start = 0; start < keys.length; start += 100) {
    let pending: Record<string, unknown>[] | undefined = keys
      .slice(start, start + 100)
      .map(({ pk, sk }) => ({ pk, sk }));
    while (pending?.length) {
      const out: BatchGetCommandOutput = await table.doc.send(
        new BatchGetCommand({
          RequestItems: { [table.name]: { Keys: pending, ...(consistent ? { ConsistentRead: true } : {}) } },
        }),
      );
      items.push(...(out.Responses?.[table.name] ?? []));
      pending = out.UnprocessedKeys?.[table.name]?.Keys;
      // keys left unprocessed mean the table is busy: give it a moment
      if (pending?.length) await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return items;
}
