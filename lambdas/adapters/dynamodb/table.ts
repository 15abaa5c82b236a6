import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient as DocumentClient } from '@aws-sdk/lib-dynamodb';
import { documentSdk } from '../aws-sdk.js';
import type { HotPathCalls } from './hot-path-calls.js';
import { TABLE_DEFINITION } from './table-definition.js';

const { DynamoDBDocumentClient } = documentSdk;

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
