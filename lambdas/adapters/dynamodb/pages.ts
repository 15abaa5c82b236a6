import type { QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Page } from '../../domain/kernel/page.js';
import { documentSdk } from '../aws-sdk.js';
import { stripKeys, type Table } from './table.js';

const { QueryCommand } = documentSdk;

/** One partition of the table or of one of its indexes, its sort key ordering items by time. */
export interface Partition {
  pkName: string;
  skName: string;
  value: string;
  read: Pick<QueryCommandInput, 'IndexName' | 'ConsistentRead'>;
}

/** Conditions on the items read (a filter can thin a raw page: the reader keeps reading). */
export interface PageFilter {
  expressions: string[];
  names: Record<string, string>;
  values: Record<string, unknown>;
}

/** Items whose attribute equals the value given, for every attribute given a value (none given: no filter). */
export function equalityFilter(equals: Readonly<Record<string, string | undefined>>): PageFilter | undefined {
  const filter: PageFilter = { expressions: [], names: {}, values: {} };
  Object.entries(equals).forEach(([attribute, value], i) => {
    if (value === undefined) return;
    filter.expressions.push(`#f${i} = :f${i}`);
    filter.names[`#f${i}`] = attribute;
    filter.values[`:f${i}`] = value;
  });
  return filter.expressions.length ? filter : undefined;
}

/** `filter` with one more condition (`attribute_not_exists(#a)`, …) whose names are `names`. */
export function andCondition(
  filter: PageFilter | undefined,
  expression: string,
  names: Record<string, string>,
): PageFilter {
  return {
    expressions: [...(filter?.expressions ?? []), expression],
    names: { ...filter?.names, ...names },
    values: { ...filter?.values },
  };
}

/** The query of one partition's items, newest first, after the sort key `startingAfter` when given, thinned by `filter`. */
export function newestFirstQuery(
  partition: Pick<Partition, 'pkName' | 'skName' | 'value'>,
  startingAfter: string | undefined,
  filter?: PageFilter,
): Pick<
  QueryCommandInput,
  | 'KeyConditionExpression'
  | 'ExpressionAttributeNames'
  | 'ExpressionAttributeValues'
  | 'ScanIndexForward'
  | 'FilterExpression'
> {
  const names: Record<string, string> = { '#p': partition.pkName, ...filter?.names };
  const values: Record<string, unknown> = { ':p': partition.value, ...filter?.values };
  let condition = '#p = :p';
  if (startingAfter) {
    condition += ' AND #s < :after';
    names['#s'] = partition.skName;
    values[':after'] = startingAfter;
  }
  return {
    KeyConditionExpression: condition,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
    ScanIndexForward: false,
    ...(filter?.expressions.length ? { FilterExpression: filter.expressions.join(' AND ') } : {}),
  };
}

/** Up to `limit` items of one partition, newest first, after the sort key `startingAfter` when given. */
export function newestFirstPage<T>(
  table: Table,
  partition: Partition,
  query: { limit: number; startingAfter?: string | undefined },
  filter?: PageFilter,
): Promise<Page<T>> {
  const input: QueryCommandInput = {
    TableName: table.name,
    ...partition.read,
    ...newestFirstQuery(partition, query.startingAfter, filter),
  };
  return collectPage<T>(table, input, query.limit);
}

/** One page, newest first, from pages of disjoint sources each newest first and cut after the same cursor (ids are time-ordered). */
export function newestFirst<T extends { id: string }>(pages: readonly Page<T>[], limit: number): Page<T> {
  const merged = pages.flatMap((page) => page.items).sort((a, b) => (a.id < b.id ? 1 : -1));
  return { items: merged.slice(0, limit), hasMore: merged.length > limit || pages.some((page) => page.hasMore) };
}

/** Reads a newest-first page of `limit` matches (filters can thin a raw page, so keep reading). */
export async function collectPage<T>(table: Table, input: QueryCommandInput, limit: number): Promise<Page<T>> {
  const items: T[] = [];
  let exclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const out = await table.doc.send(
      new QueryCommand({
        ...input,
        Limit: Math.max(limit + 1 - items.length, 10),
        ExclusiveStartKey: exclusiveStartKey,
      }),
    );
    for (const item of out.Items ?? []) items.push(stripKeys<T>(item));
    exclusiveStartKey = out.LastEvaluatedKey;
  } while (exclusiveStartKey && items.length <= limit);
  return { items: items.slice(0, limit), hasMore: items.length > limit };
}

/** Every item a query matches, following its pages to the end, without the storage keys (small sets: an organisation's keys, members). */
export async function allItems<T>(
  table: Table,
  input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>,
): Promise<T[]> {
  const items: T[] = [];
  let exclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const out = await table.doc.send(
      new QueryCommand({ TableName: table.name, ...input, ExclusiveStartKey: exclusiveStartKey }),
    );
    for (const item of out.Items ?? []) items.push(stripKeys<T>(item));
    exclusiveStartKey = out.LastEvaluatedKey;
  } while (exclusiveStartKey);
  return items;
}
