import type { EndpointSlug } from '../catalogue/catalogue.js';
import type { Page } from '../kernel/page.js';
import type {
  DeliveryAttempt,
  DeliveryRecord,
  DeliveryStatus,
  EventRecord,
  SendOutcome,
  WebhookEndpointRecord,
  WebhookEvent,
  WebhookEventType,
} from '../webhooks/records.js';

export interface DeliveryQuery {
  endpointId: string;
  status?: DeliveryStatus;
  /** the endpoint slug of the event's job */
  jobEndpoint?: EndpointSlug;
  limit: number;
  startingAfter?: string;
}

export interface EventQuery {
  orgId: string;
  type?: WebhookEventType;
  jobId?: string;
  createdGte?: number;
  limit: number;
  startingAfter?: string;
}

/** Webhook endpoints, events and deliveries. */
export interface WebhookStore {
  /** counted, when the organisation's endpoints are; false (and nothing written) when the organisation does not exist */
  putEndpoint(endpoint: WebhookEndpointRecord): Promise<boolean>;
  getEndpoint(id: string): Promise<WebhookEndpointRecord | null>;
  /** newest first */
  listEndpoints(orgId: string): Promise<WebhookEndpointRecord[]>;
  /** false when it did not exist */
  deleteEndpoint(endpoint: Pick<WebhookEndpointRecord, 'id' | 'org_id'>): Promise<boolean>;
  /** replaces the signing secrets; false when the endpoint is gone */
  setSecrets(id: string, secrets: WebhookEndpointRecord['secrets']): Promise<boolean>;
  getEvent(id: string): Promise<EventRecord | null>;
  /** newest first */
  listEvents(query: EventQuery): Promise<Page<WebhookEvent>>;
  markDispatched(eventId: string): Promise<void>;
  /**
   * false when a delivery with this id exists already. With `claimedUntil`, it is created with its
   * first attempt claimed until then, as `claimAttempt` would claim it.
   */
  createDelivery(delivery: DeliveryRecord, claimedUntil?: number): Promise<boolean>;
  getDelivery(id: string): Promise<DeliveryRecord | null>;
  /** applies one attempt's outcome, only if no other worker recorded attempt `expectedAttempt + 1` first */
  recordAttempt(
    id: string,
    expectedAttempt: number,
    set: Pick<DeliveryRecord, 'attempt' | 'status' | 'status_code' | 'duration_ms' | 'error' | 'next_attempt_at'>,
    attempt: DeliveryAttempt,
  ): Promise<boolean>;
  /** newest first; an unknown `startingAfter` is placed by the time its id encodes, as every other list places it */
  listDeliveries(query: DeliveryQuery): Promise<Page<DeliveryRecord>>;
  /** events never dispatched and pending deliveries whose message may have been lost, due by `nowSeconds` */
  listOverdue(nowSeconds: number, limit: number): Promise<{ eventIds: string[]; deliveryIds: string[] }>;
  /** moves what `listOverdue` found to `dueAt`, so a sweep re-sends each message once per grace period */
  postponeOverdue(overdue: { eventIds: string[]; deliveryIds: string[] }, dueAt: number): Promise<void>;
  /**
   * Claims the next attempt of a pending delivery until `leaseUntil`, so duplicate messages never
   * send it twice at once; false when another worker holds it or it is no longer pending.
   */
  claimAttempt(id: string, expectedAttempt: number, nowSeconds: number, leaseUntil: number): Promise<boolean>;
}

/** Messages carry ids only. */
export type WebhookMessage = { event_id: string } | { delivery_id: string };

export interface WebhookQueue {
  /** `delaySeconds` at most 900 (SQS); longer waits are re-enqueued in hops */
  send(message: WebhookMessage, delaySeconds?: number): Promise<void>;
}

export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  /** the local runtime alone may deliver to 127.0.0.1 / localhost */
  allowLoopback: boolean;
}

/** One POST to a receiver: resolves the name, refuses non-public addresses, follows no redirect. */
export interface WebhookSender {
  send(request: WebhookRequest): Promise<SendOutcome>;
}
