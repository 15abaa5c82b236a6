import type { QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { epochSecondsOfId } from '../../domain/kernel/ids.js';
import type { Page } from '../../domain/kernel/page.js';
import type { DeliveryQuery, EventQuery, WebhookStore } from '../../domain/ports/webhooks.js';
import { DELIVERY_GRACE_SECONDS } from '../../domain/webhooks/delivery.js';
import type {
  DeliveryAttempt,
  DeliveryRecord,
  EventRecord,
  WebhookEndpointRecord,
  WebhookEvent,
} from '../../domain/webhooks/records.js';
import { documentSdk, dynamodbSdk } from '../aws-sdk.js';
import { organizationExists, refusedItems, refusedOnly } from './conditions.js';
import { packedEvent } from './event-body.js';
import { eventPage, toEventRecord } from './event-index.js';
import { INDEX, keys } from './keys.js';
import { equalityFilter, newestFirstPage } from './pages.js';
import { stripKeys, type Table } from './table.js';

const { DeleteCommand, GetCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand } = documentSdk;
const { ConditionalCheckFailedException } = dynamodbSdk;

/** An endpoint item's mark that the organisation's endpoint count includes it. */
const COUNTED = 'counted';

/** A delivery's `gsi3` sort key: the sweeper re-sends it once `attemptAt` is a grace period past (its message may be lost). */
function sweepableAt(attemptAt: number, deliveryId: string): string {
  return keys.dueAt(attemptAt + DELIVERY_GRACE_SECONDS, deliveryId);
}

async function conditional(write: () => Promise<unknown>): Promise<boolean> {
  try {
    await write();
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/** An event record's attributes, its event compressed (event-body.ts). */
function eventRecordAttributes({ event, ...rest }: EventRecord): Record<string, unknown> {
  return { ...rest, ...packedEvent(event) };
}

/** The outbox item of one event: the sweeper finds it by `gsi3` until it is dispatched (an event written dispatched has no entry). */
export function eventItem(record: EventRecord, dispatchDueAt: number | null): Record<string, unknown> {
  return {
    ...keys.event(record.event.id),
    gsi4pk: keys.eventsOfOrg(record.org_id),
    gsi4sk: record.event.id,
    ...(dispatchDueAt === null
      ? {}
      : { gsi3pk: keys.webhooksDue(), gsi3sk: keys.dueAt(dispatchDueAt, record.event.id) }),
    ...eventRecordAttributes(record),
    type: record.event.type,
    created: record.event.created,
  };
}

function deliveryItem(delivery: DeliveryRecord): Record<string, unknown> {
  return {
    ...keys.delivery(delivery.id),
    gsi2pk: keys.deliveriesOfEndpoint(delivery.endpoint_id),
    gsi2sk: keys.deliveryOrder(delivery.created, delivery.id),
    ...(delivery.status === 'pending' && delivery.next_attempt_at !== null
      ? { gsi3pk: keys.webhooksDue(), gsi3sk: sweepableAt(delivery.next_attempt_at, delivery.id) }
      : {}),
    ...delivery,
  };
}

function toEndpointRecord(item: Record<string, unknown>): WebhookEndpointRecord {
  const { [COUNTED]: _counted, ...record } = stripKeys<
    Omit<WebhookEndpointRecord, 'livemode'> & { livemode?: boolean; [COUNTED]?: boolean }
  >(item);
  // an endpoint created before endpoints had a mode was receiving test events: it stays a test endpoint
  return { ...record, livemode: record.livemode ?? false };
}

/** A new organisation's webhook endpoint count, at zero: only then may its events be written without dispatch. */
export function endpointCountItem(tableName: string, orgId: string) {
  return {
    Put: {
      TableName: tableName,
      Item: { ...keys.webhookEndpointCount(orgId), endpoints: 0 },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

export class DynamoWebhookStore implements WebhookStore {
  constructor(private readonly table: Table) {}

  async putEndpoint(endpoint: WebhookEndpointRecord): Promise<boolean> {
    const item = {
      ...keys.webhookEndpoint(endpoint.id),
      gsi2pk: keys.webhookEndpointsOfOrg(endpoint.org_id),
      gsi2sk: endpoint.id,
      ...endpoint,
    };
    const put = { TableName: this.table.name, ConditionExpression: 'attribute_not_exists(pk)' };
    const organization = organizationExists(this.table.name, endpoint.org_id);
    try {
      await this.table.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { ...put, Item: { ...item, [COUNTED]: true } } },
            { Update: { ...this.countChange(endpoint.org_id, 1), ConditionExpression: 'attribute_exists(endpoints)' } },
            organization,
          ],
        }),
      );
      return true;
    } catch (error) {
      // no organisation (its count is then absent too): nothing to write
      if (refusedItems(error).some(({ index }) => index === 2)) return false;
      if (!refusedOnly(error, 1)) throw error;
    }
    // an organisation whose endpoints were never counted keeps them uncounted: its count would be too low
    try {
      await this.table.doc.send(
        new TransactWriteCommand({ TransactItems: [{ Put: { ...put, Item: item } }, organization] }),
      );
      return true;
    } catch (error) {
      if (refusedOnly(error, 1)) return false;
      throw error;
    }
  }

  async getEndpoint(id: string): Promise<WebhookEndpointRecord | null> {
    const out = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: keys.webhookEndpoint(id), ConsistentRead: true }),
    );
    return out.Item ? toEndpointRecord(out.Item) : null;
  }

  async listEndpoints(orgId: string): Promise<WebhookEndpointRecord[]> {
    const items = await this.queryAll({
      IndexName: INDEX.byOrg,
      KeyConditionExpression: 'gsi2pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.webhookEndpointsOfOrg(orgId) },
      ScanIndexForward: false,
    });
    return items.map(toEndpointRecord);
  }

  async deleteEndpoint(endpoint: Pick<WebhookEndpointRecord, 'id' | 'org_id'>): Promise<boolean> {
    const remove = { TableName: this.table.name, Key: keys.webhookEndpoint(endpoint.id) };
    try {
      await this.table.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Delete: {
                ...remove,
                ConditionExpression: 'attribute_exists(pk) AND #counted = :yes',
                ExpressionAttributeNames: { '#counted': COUNTED },
                ExpressionAttributeValues: { ':yes': true },
              },
            },
            { Update: this.countChange(endpoint.org_id, -1) },
          ],
        }),
      );
      return true;
    } catch (error) {
      if (!refusedOnly(error, 0)) throw error;
      // gone already, or never counted
      return conditional(() =>
        this.table.doc.send(new DeleteCommand({ ...remove, ConditionExpression: 'attribute_exists(pk)' })),
      );
    }
  }

  private countChange(orgId: string, delta: 1 | -1) {
    return {
      TableName: this.table.name,
      Key: keys.webhookEndpointCount(orgId),
      UpdateExpression: 'ADD endpoints :delta',
      ExpressionAttributeValues: { ':delta': delta },
    };
  }

  async setSecrets(id: string, secrets: WebhookEndpointRecord['secrets']): Promise<boolean> {
    return conditional(() =>
      this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: keys.webhookEndpoint(id),
          UpdateExpression: 'SET secrets = :secrets',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':secrets': secrets },
        }),
      ),
    );
  }

  async getEvent(id: string): Promise<EventRecord | null> {
    const out = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: keys.event(id), ConsistentRead: true }),
    );
    return out.Item ? toEventRecord(out.Item) : null;
  }

  listEvents(query: EventQuery): Promise<Page<WebhookEvent>> {
    return eventPage(this.table, query);
  }

  async markDispatched(eventId: string): Promise<void> {
    await this.table.doc.send(
      new UpdateCommand({
        TableName: this.table.name,
        Key: keys.event(eventId),
        UpdateExpression: 'SET dispatched = :yes REMOVE gsi3pk, gsi3sk',
        ExpressionAttributeValues: { ':yes': true },
      }),
    );
  }

  async createDelivery(delivery: DeliveryRecord, claimedUntil?: number): Promise<boolean> {
    const item = deliveryItem(delivery);
    const claim =
      claimedUntil === undefined ? {} : { lease_until: claimedUntil, gsi3sk: sweepableAt(claimedUntil, delivery.id) };
    return conditional(() =>
      this.table.doc.send(
        new PutCommand({
          TableName: this.table.name,
          Item: { ...item, ...claim },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      ),
    );
  }

  async getDelivery(id: string): Promise<DeliveryRecord | null> {
    const out = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: keys.delivery(id), ConsistentRead: true }),
    );
    return out.Item ? stripKeys<DeliveryRecord>(out.Item) : null;
  }

  async recordAttempt(
    id: string,
    expectedAttempt: number,
    set: Pick<DeliveryRecord, 'attempt' | 'status' | 'status_code' | 'duration_ms' | 'error' | 'next_attempt_at'>,
    attempt: DeliveryAttempt,
  ): Promise<boolean> {
    const pending = set.status === 'pending' && set.next_attempt_at !== null;
    return conditional(() =>
      this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: keys.delivery(id),
          ConditionExpression: '#attempt = :expected AND #status = :pending',
          UpdateExpression: `SET #attempt = :attempt, #status = :status, status_code = :code, duration_ms = :duration, #error = :error, next_attempt_at = :next, attempts = list_append(attempts, :log)${
            pending ? ', gsi3sk = :due' : ' REMOVE gsi3pk, gsi3sk'
          }`,
          ExpressionAttributeNames: { '#attempt': 'attempt', '#status': 'status', '#error': 'error' },
          ExpressionAttributeValues: {
            ':expected': expectedAttempt,
            ':pending': 'pending',
            ':attempt': set.attempt,
            ':status': set.status,
            ':code': set.status_code,
            ':duration': set.duration_ms,
            ':error': set.error,
            ':next': set.next_attempt_at,
            ':log': [attempt],
            ...(pending ? { ':due': sweepableAt(set.next_attempt_at!, id) } : {}),
          },
        }),
      ),
    );
  }

  async listDeliveries(query: DeliveryQuery): Promise<Page<DeliveryRecord>> {
    const partition = {
      pkName: 'gsi2pk',
      skName: 'gsi2sk',
      value: keys.deliveriesOfEndpoint(query.endpointId),
      read: { IndexName: INDEX.byOrg },
    };
    // deliveries created before the slug was stored have none, so they match no endpoint filter
    const filter = equalityFilter({ status: query.status, job_endpoint: query.jobEndpoint });
    const startingAfter = query.startingAfter ? await this.deliveryPosition(query.startingAfter) : undefined;
    return newestFirstPage<DeliveryRecord>(this.table, partition, { limit: query.limit, startingAfter }, filter);
  }

  /**
   * Where a cursor sits in the delivery log (ordered by `created`, then id). A delivery that is not
   * found is placed by the time its id encodes, as the other lists place any id: a cursor whose row is
   * gone continues after it instead of starting over (which would loop a client for ever).
   */
  private async deliveryPosition(id: string): Promise<string> {
    const after = await this.getDelivery(id);
    return keys.deliveryOrder(after?.created ?? epochSecondsOfId(id), id);
  }

  async listOverdue(nowSeconds: number, limit: number): Promise<{ eventIds: string[]; deliveryIds: string[] }> {
    const out = await this.table.doc.send(
      new QueryCommand({
        TableName: this.table.name,
        IndexName: INDEX.due,
        KeyConditionExpression: 'gsi3pk = :pk AND gsi3sk <= :now',
        ExpressionAttributeValues: { ':pk': keys.webhooksDue(), ':now': keys.dueAt(nowSeconds, '~') },
        Limit: limit,
      }),
    );
    const ids = (out.Items ?? []).map((item) => String(item.pk));
    return {
      eventIds: ids.filter((pk) => pk.startsWith('EVT#')).map((pk) => pk.slice(4)),
      deliveryIds: ids.filter((pk) => pk.startsWith('WHD#')).map((pk) => pk.slice(4)),
    };
  }

  async postponeOverdue(overdue: { eventIds: string[]; deliveryIds: string[] }, dueAt: number): Promise<void> {
    const postpone = (key: { pk: string; sk: string }, id: string) =>
      conditional(() =>
        this.table.doc.send(
          new UpdateCommand({
            TableName: this.table.name,
            Key: key,
            UpdateExpression: 'SET gsi3sk = :due',
            ConditionExpression: 'attribute_exists(gsi3pk)',
            ExpressionAttributeValues: { ':due': keys.dueAt(dueAt, id) },
          }),
        ),
      );
    await Promise.all([
      ...overdue.eventIds.map((id) => postpone(keys.event(id), id)),
      ...overdue.deliveryIds.map((id) => postpone(keys.delivery(id), id)),
    ]);
  }

  async claimAttempt(id: string, expectedAttempt: number, nowSeconds: number, leaseUntil: number): Promise<boolean> {
    return conditional(() =>
      this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: keys.delivery(id),
          ConditionExpression:
            '#attempt = :expected AND #status = :pending AND (attribute_not_exists(lease_until) OR lease_until < :now)',
          UpdateExpression: 'SET lease_until = :lease, gsi3sk = :due',
          ExpressionAttributeNames: { '#attempt': 'attempt', '#status': 'status' },
          ExpressionAttributeValues: {
            ':expected': expectedAttempt,
            ':pending': 'pending',
            ':now': nowSeconds,
            ':lease': leaseUntil,
            ':due': sweepableAt(leaseUntil, id),
          },
        }),
      ),
    );
  }

  private async queryAll(input: Omit<QueryCommandInput, 'TableName'>): Promise<Record<string, unknown>[]> {
    const items: Record<string, unknown>[] = [];
    let cursor: Record<string, unknown> | undefined;
    do {
      const out = await this.table.doc.send(
        new QueryCommand({ TableName: this.table.name, ...input, ...(cursor ? { ExclusiveStartKey: cursor } : {}) }),
      );
      items.push(...(out.Items ?? []));
      cursor = out.LastEvaluatedKey;
    } while (cursor);
    return items;
  }
}
