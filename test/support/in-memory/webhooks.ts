import { epochSecondsOfId } from '../../../lambdas/domain/kernel/ids.js';
import type { Page } from '../../../lambdas/domain/kernel/page.js';
import type {
  DeliveryQuery,
  EventQuery,
  WebhookMessage,
  WebhookQueue,
  WebhookRequest,
  WebhookSender,
  WebhookStore,
} from '../../../lambdas/domain/ports/webhooks.js';
import { DELIVERY_GRACE_SECONDS } from '../../../lambdas/domain/webhooks/delivery.js';
import type {
  DeliveryAttempt,
  DeliveryRecord,
  EventRecord,
  SendOutcome,
  WebhookEndpointRecord,
  WebhookEvent,
} from '../../../lambdas/domain/webhooks/records.js';
import { RecordingQueue } from './jobs.js';
import { copy, type InMemoryTables, newestFirstPage } from './tables.js';

/** Webhook endpoints (counted per organisation), the outbox of events, and deliveries with their claims. */
export class InMemoryWebhookStore implements WebhookStore {
  constructor(private readonly tables: InMemoryTables) {}

  async putEndpoint(endpoint: WebhookEndpointRecord): Promise<boolean> {
    if (!this.tables.organizations.has(endpoint.org_id) || this.tables.endpoints.has(endpoint.id)) return false;
    this.tables.endpoints.set(endpoint.id, copy(endpoint));
    this.tables.endpointCounts.set(endpoint.org_id, (this.tables.endpointCounts.get(endpoint.org_id) ?? 0) + 1);
    return true;
  }

  async getEndpoint(id: string): Promise<WebhookEndpointRecord | null> {
    const endpoint = this.tables.endpoints.get(id);
    return endpoint ? copy(endpoint) : null;
  }

  async listEndpoints(orgId: string): Promise<WebhookEndpointRecord[]> {
    return newestFirstPage(
      [...this.tables.endpoints.values()].filter((endpoint) => endpoint.org_id === orgId),
      { limit: Number.POSITIVE_INFINITY },
    ).items;
  }

  async deleteEndpoint(endpoint: Pick<WebhookEndpointRecord, 'id' | 'org_id'>): Promise<boolean> {
    if (!this.tables.endpoints.delete(endpoint.id)) return false;
    this.tables.endpointCounts.set(endpoint.org_id, (this.tables.endpointCounts.get(endpoint.org_id) ?? 1) - 1);
    return true;
  }

  async setSecrets(id: string, secrets: WebhookEndpointRecord['secrets']): Promise<boolean> {
    const endpoint = this.tables.endpoints.get(id);
    if (!endpoint) return false;
    endpoint.secrets = copy(secrets);
    return true;
  }

  async getEvent(id: string): Promise<EventRecord | null> {
    const stored = this.tables.events.get(id);
    return stored ? copy(stored.record) : null;
  }

  async listEvents(query: EventQuery): Promise<Page<WebhookEvent>> {
    const events = [...this.tables.events.values()]
      .map(({ record }) => record)
      .filter(
        (record) =>
          record.org_id === query.orgId &&
          (query.type === undefined || record.event.type === query.type) &&
          (query.jobId === undefined || record.job_id === query.jobId) &&
          (query.createdGte === undefined || record.event.created >= query.createdGte),
      )
      .map((record) => record.event);
    return newestFirstPage(events, query);
  }

  async markDispatched(eventId: string): Promise<void> {
    const stored = this.tables.events.get(eventId);
    if (stored)
      this.tables.events.set(eventId, { record: { ...stored.record, dispatched: true }, dispatchDueAt: null });
  }

  async createDelivery(delivery: DeliveryRecord, claimedUntil?: number): Promise<boolean> {
    if (this.tables.deliveries.has(delivery.id)) return false;
    const pendingAt = delivery.status === 'pending' ? delivery.next_attempt_at : null;
    const sweepFrom = claimedUntil ?? pendingAt;
    this.tables.deliveries.set(delivery.id, {
      delivery: copy(delivery),
      leaseUntil: claimedUntil ?? null,
      sweepAt: sweepFrom === null ? null : sweepFrom + DELIVERY_GRACE_SECONDS,
    });
    return true;
  }

  async getDelivery(id: string): Promise<DeliveryRecord | null> {
    const stored = this.tables.deliveries.get(id);
    return stored ? copy(stored.delivery) : null;
  }

  async recordAttempt(
    id: string,
    expectedAttempt: number,
    set: Pick<DeliveryRecord, 'attempt' | 'status' | 'status_code' | 'duration_ms' | 'error' | 'next_attempt_at'>,
    attempt: DeliveryAttempt,
  ): Promise<boolean> {
    const stored = this.tables.deliveries.get(id);
    if (!stored || stored.delivery.attempt !== expectedAttempt || stored.delivery.status !== 'pending') return false;
    stored.delivery = { ...stored.delivery, ...copy(set), attempts: [...stored.delivery.attempts, copy(attempt)] };
    stored.sweepAt =
      set.status === 'pending' && set.next_attempt_at !== null ? set.next_attempt_at + DELIVERY_GRACE_SECONDS : null;
    return true;
  }

  async listDeliveries(query: DeliveryQuery): Promise<Page<DeliveryRecord>> {
    const order = (delivery: Pick<DeliveryRecord, 'created' | 'id'>) =>
      `${String(delivery.created).padStart(12, '0')}#${delivery.id}`;
    const after = query.startingAfter;
    const afterDelivery = after === undefined ? undefined : this.tables.deliveries.get(after)?.delivery;
    const cursor =
      after === undefined
        ? undefined
        : order({ created: afterDelivery?.created ?? epochSecondsOfId(after), id: after });
    const deliveries = [...this.tables.deliveries.values()]
      .map(({ delivery }) => delivery)
      .filter(
        (delivery) =>
          delivery.endpoint_id === query.endpointId &&
          (query.status === undefined || delivery.status === query.status) &&
          (query.jobEndpoint === undefined || delivery.job_endpoint === query.jobEndpoint) &&
          (cursor === undefined || order(delivery) < cursor),
      )
      .sort((a, b) => (order(a) < order(b) ? 1 : -1));
    return { items: deliveries.slice(0, query.limit).map(copy), hasMore: deliveries.length > query.limit };
  }

  async listOverdue(nowSeconds: number, limit: number): Promise<{ eventIds: string[]; deliveryIds: string[] }> {
    const due = [
      ...[...this.tables.events.entries()].map(([id, { dispatchDueAt }]) => ({
        kind: 'event' as const,
        id,
        at: dispatchDueAt,
      })),
      ...[...this.tables.deliveries.entries()].map(([id, { sweepAt }]) => ({
        kind: 'delivery' as const,
        id,
        at: sweepAt,
      })),
    ]
      .filter((entry): entry is typeof entry & { at: number } => entry.at !== null && entry.at <= nowSeconds)
      .sort((a, b) => a.at - b.at)
      .slice(0, limit);
    return {
      eventIds: due.filter((entry) => entry.kind === 'event').map((entry) => entry.id),
      deliveryIds: due.filter((entry) => entry.kind === 'delivery').map((entry) => entry.id),
    };
  }

  async postponeOverdue(overdue: { eventIds: string[]; deliveryIds: string[] }, dueAt: number): Promise<void> {
    for (const id of overdue.eventIds) {
      const stored = this.tables.events.get(id);
      if (stored && stored.dispatchDueAt !== null) stored.dispatchDueAt = dueAt;
    }
    for (const id of overdue.deliveryIds) {
      const stored = this.tables.deliveries.get(id);
      if (stored && stored.sweepAt !== null) stored.sweepAt = dueAt;
    }
  }

  async claimAttempt(id: string, expectedAttempt: number, nowSeconds: number, leaseUntil: number): Promise<boolean> {
    const stored = this.tables.deliveries.get(id);
    if (!stored || stored.delivery.attempt !== expectedAttempt || stored.delivery.status !== 'pending') return false;
    if (stored.leaseUntil !== null && stored.leaseUntil >= nowSeconds) return false;
    stored.leaseUntil = leaseUntil;
    stored.sweepAt = leaseUntil + DELIVERY_GRACE_SECONDS;
    return true;
  }
}

export class InMemoryWebhookQueue extends RecordingQueue<WebhookMessage> implements WebhookQueue {}

/**
 * A receiver double whose answer can be switched (Svix's `TestReceiver`): every request is kept,
 * and each gets the next scripted outcome, or the standing one.
 */
export class ScriptedWebhookSender implements WebhookSender {
  readonly requests: WebhookRequest[] = [];
  private readonly script: Array<Partial<SendOutcome>> = [];
  standing: SendOutcome = { statusCode: 200, durationMs: 1, error: null, retryAfterSeconds: null };

  /** the next answers, in order; after them the standing one */
  answer(...outcomes: Array<Partial<SendOutcome>>): void {
    this.script.push(...outcomes);
  }

  async send(request: WebhookRequest): Promise<SendOutcome> {
    this.requests.push(copy(request));
    return { ...this.standing, ...this.script.shift() };
  }
}
