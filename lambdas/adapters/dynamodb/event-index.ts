import type { QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Page } from '../../domain/kernel/page.js';
import type { EventQuery } from '../../domain/ports/webhooks.js';
import type { EventRecord, WebhookEvent } from '../../domain/webhooks/records.js';
import { documentSdk } from '../aws-sdk.js';
import { EVENT_BODY_ATTRIBUTE, unpackedEvent } from './event-body.js';
import { INDEX, keys } from './keys.js';
import { itemsByKey, stripKeys, type Table } from './table.js';

const { QueryCommand } = documentSdk;

/**
 * An organisation's events are listed from `gsi4`, which holds each event's keys and what the lists
 * filter on (`type`, `job_id`, `created`): a page's events are then read by key. Events written
 * before `gsi4` existed are on `gsi2`, whole; both are read and merged by id (ids are time-ordered),
 * so they list as before with no migration (docs/internals/cost.md).
 */
interface Source {
  index: string;
  pkName: string;
  skName: string;
  /** its entries are keys and filter attributes only: the events themselves are read by key */
  lean: boolean;
}

const SOURCES: readonly Source[] = [
  { index: INDEX.eventsOfOrg, pkName: 'gsi4pk', skName: 'gsi4sk', lean: true },
  { index: INDEX.byOrg, pkName: 'gsi2pk', skName: 'gsi2sk', lean: false },
];

type Entry = Record<string, unknown> & { id: string };

/** An event item as the domain's record: the copies of `type` and `created` kept for the indexes go. */
export function toEventRecord(item: Record<string, unknown>): EventRecord {
  const {
    type: _type,
    created: _created,
    [EVENT_BODY_ATTRIBUTE]: _body,
    ...record
  } = stripKeys<EventRecord & { type: string; created: number; [EVENT_BODY_ATTRIBUTE]?: unknown }>(item);
  return { ...record, event: unpackedEvent(item) };
}

interface Range {
  /** only events with ids before this one */
  before?: string | undefined;
  /** only events with ids from this one on (inclusive) */
  from?: string | undefined;
}

/** One source's entries of the organisation in `range`, newest first, up to `limit` matching `filter` (all without a limit). */
async function entriesOf(
  table: Table,
  source: Source,
  orgId: string,
  range: Range,
  filter: Pick<QueryCommandInput, 'FilterExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues'>,
  limit?: number,
): Promise<Entry[]> {
  const names: Record<string, string> = { '#p': source.pkName, ...filter.ExpressionAttributeNames };
  if (range.before !== undefined || range.from !== undefined) names['#s'] = source.skName;
  const values: Record<string, unknown> = { ':p': keys.eventsOfOrg(orgId), ...filter.ExpressionAttributeValues };
  let condition = '#p = :p';
  if (range.before !== undefined && range.from !== undefined) {
    condition += ' AND #s BETWEEN :from AND :before';
    values[':from'] = range.from;
    values[':before'] = range.before;
  } else if (range.before !== undefined) {
    condition += ' AND #s < :before';
    values[':before'] = range.before;
  } else if (range.from !== undefined) {
    condition += ' AND #s >= :from';
    values[':from'] = range.from;
  }
  const found: Entry[] = [];
  let cursor: Record<string, unknown> | undefined;
  // a filter may discard most of a page: read on until `limit` (plus one, for has_more) matched
  do {
    const out = await table.doc.send(
      new QueryCommand({
        TableName: table.name,
        IndexName: source.index,
        KeyConditionExpression: condition,
        ...(filter.FilterExpression ? { FilterExpression: filter.FilterExpression } : {}),
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ScanIndexForward: false,
        ...(limit === undefined ? {} : { Limit: Math.max(limit + 1, 25) }),
        ...(cursor ? { ExclusiveStartKey: cursor } : {}),
      }),
    );
    for (const item of out.Items ?? []) found.push({ ...item, id: String(item[source.skName]) });
    cursor = out.LastEvaluatedKey;
  } while (cursor && (limit === undefined || found.length <= limit));
  return found;
}

/** The events of `entries`, in their order: a lean entry's event read by key, a whole one as it is. */
async function eventsOf(table: Table, entries: readonly (Entry & { lean: boolean })[]): Promise<EventRecord[]> {
  const lean = entries.filter((entry) => entry.lean);
  const read = new Map<string, EventRecord>();
  for (const item of await itemsByKey(table, lean, { consistent: false })) {
    const record = toEventRecord(item);
    read.set(record.event.id, record);
  }
  return entries.flatMap((entry) => {
    const record = entry.lean ? read.get(entry.id) : toEventRecord(entry);
    // an event redacted away between the index read and the read by key is left out
    return record ? [record] : [];
  });
}

async function merged(
  table: Table,
  orgId: string,
  range: Range,
  filter: Parameters<typeof entriesOf>[4],
  limit?: number,
): Promise<(Entry & { lean: boolean })[]> {
  const perSource = await Promise.all(
    SOURCES.map(async (source) =>
      (await entriesOf(table, source, orgId, range, filter, limit)).map((entry) => ({ ...entry, lean: source.lean })),
    ),
  );
  return perSource.flat().sort((a, b) => (a.id < b.id ? 1 : -1));
}

/** `GET /v1/events`: a page of the organisation's events, newest first. */
export async function eventPage(table: Table, query: EventQuery): Promise<Page<WebhookEvent>> {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const filters: string[] = [];
  if (query.type) {
    names['#type'] = 'type';
    values[':type'] = query.type;
    filters.push('#type = :type');
  }
  if (query.jobId) {
    values[':job'] = query.jobId;
    filters.push('job_id = :job');
  }
  if (query.createdGte !== undefined) {
    names['#created'] = 'created';
    values[':gte'] = query.createdGte;
    filters.push('#created >= :gte');
  }
  const entries = await merged(
    table,
    query.orgId,
    { before: query.startingAfter },
    {
      ...(filters.length ? { FilterExpression: filters.join(' AND ') } : {}),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
    query.limit,
  );
  const events = await eventsOf(table, entries.slice(0, query.limit));
  return { items: events.map((record) => record.event), hasMore: entries.length > query.limit };
}

/** Every event of the organisation with an id in [from, to] whose job is one of `jobIds`. */
export async function eventsOfJobsIn(
  table: Table,
  orgId: string,
  jobIds: ReadonlySet<string>,
  range: { from: string; to: string },
): Promise<EventRecord[]> {
  const entries = await merged(table, orgId, { from: range.from, before: range.to }, {});
  return eventsOf(
    table,
    entries.filter((entry) => jobIds.has(String(entry.job_id))),
  );
}
