import { epochSeconds } from '../kernel/clock.js';
import { derivedBase58, timeOrderedId } from '../kernel/ids.js';
import type { Services } from '../ports/services.js';
import {
  type DeliveryRecord,
  type EventRecord,
  isJobEvent,
  type SendOutcome,
  type WebhookEndpointRecord,
  type WebhookEvent,
} from './records.js';
import { isDelivered, nextAttemptDelaySeconds } from './retry-policy.js';
import { signatureHeaders } from './signing.js';

/** SQS holds a message back at most this long; a longer wait is re-enqueued in hops. */
const MAX_QUEUE_DELAY_SECONDS = 900;

/** A delivery whose message was lost is picked up by the sweeper this long after it was due. */
export const DELIVERY_GRACE_SECONDS = 60;

/** Secrets that still sign: the current one and any retired one inside its overlap window. */
export function activeSecrets(endpoint: WebhookEndpointRecord, nowSeconds: number): string[] {
  return endpoint.secrets.filter((s) => s.expires_at === null || s.expires_at > nowSeconds).map((s) => s.secret);
}

/** One delivery per (event, endpoint): its id is derived from both, so a repeated dispatch creates nothing new. */
function dispatchedDeliveryId(eventId: string, endpointId: string): string {
  return `whd_${derivedBase58(`${eventId}:${endpointId}`, 22)}`;
}

export function newDelivery(
  services: Services,
  id: string,
  event: WebhookEvent,
  endpoint: WebhookEndpointRecord,
): DeliveryRecord {
  const now = epochSeconds(services.clock);
  return {
    id,
    org_id: endpoint.org_id,
    endpoint_id: endpoint.id,
    event_id: event.id,
    event_type: event.type,
    attempt: 0,
    status: 'pending',
    status_code: null,
    duration_ms: null,
    error: null,
    next_attempt_at: now,
    created: now,
    attempts: [],
    job_endpoint: isJobEvent(event.data) ? event.data.job.endpoint : event.data.batch.endpoint,
  };
}

/** An enabled endpoint of the event's organisation and mode, subscribed to its type: each mode's events go to that mode's endpoints only. */
export function subscribed(endpoint: WebhookEndpointRecord, record: EventRecord): boolean {
  return (
    endpoint.status === 'enabled' &&
    endpoint.org_id === record.org_id &&
    endpoint.livemode === record.livemode &&
    endpoint.enabled_events.includes(record.event.type)
  );
}

async function enqueueDelivery(services: Services, deliveryId: string, delaySeconds = 0): Promise<void> {
  await services.webhookQueue
    .send({ delivery_id: deliveryId }, Math.min(Math.max(0, delaySeconds), MAX_QUEUE_DELAY_SECONDS))
    .catch((error: unknown) =>
      services.log.warn('delivery enqueue failed; the sweeper will send it', {
        delivery_id: deliveryId,
        error: String(error),
      }),
    );
}

/**
 * Fans an event out: one delivery per endpoint subscribed to its type, then the event is marked
 * dispatched and the first attempts are made. Safe to repeat (SQS redelivery, a crash half-way): delivery ids are derived from
 * (event, endpoint) and created conditionally.
 */
export async function dispatchEvent(services: Services, eventId: string): Promise<number> {
  const record = await services.webhooks.getEvent(eventId);
  if (!record || record.dispatched) return 0;
  const endpoints = (await services.webhooks.listEndpoints(record.org_id)).filter((endpoint) =>
    subscribed(endpoint, record),
  );
  const now = epochSeconds(services.clock);
  const claimedUntil = leaseEnd(services, now);
  // each delivery is created with its first attempt already claimed, so that attempt needs no
  // further read or claim; one that existed already (a repeated dispatch) takes the ordinary path
  const firstAttempts = await Promise.all(
    endpoints.map(async (endpoint) => {
      const delivery = newDelivery(
        services,
        dispatchedDeliveryId(record.event.id, endpoint.id),
        record.event,
        endpoint,
      );
      const created = await services.webhooks.createDelivery(delivery, claimedUntil);
      return () =>
        created
          ? attemptClaimed(services, delivery, endpoint, record.event, now, Math.random)
          : attemptDelivery(services, delivery.id);
    }),
  );
  services.faults.reach('webhooks.before_dispatched');
  // the deliveries exist, so marking the event and the first attempts need not wait for each
  // other: a crash before the mark re-dispatches, which creates nothing new
  await Promise.all([services.webhooks.markDispatched(eventId), ...firstAttempts.map((attempt) => attempt())]);
  return endpoints.length;
}

/** The exact request of one attempt: the event as stored, signed now with every active secret. */
export function deliveryRequest(
  services: Services,
  endpoint: WebhookEndpointRecord,
  event: WebhookEvent,
  attempt: number,
) {
  const now = epochSeconds(services.clock);
  const body = JSON.stringify(event);
  return {
    url: endpoint.url,
    body,
    headers: {
      'Content-Type': 'application/json',
      'User-Agent': 'AutomotiveInference-Webhooks/1.0',
      'Svc-Event-Id': event.id,
      'Svc-Delivery-Attempt': String(attempt),
      ...signatureHeaders(activeSecrets(endpoint, now), event.id, now, body),
    },
    timeoutMs: services.config.webhookTimeoutMs,
    allowLoopback: services.config.runtime === 'local',
  };
}

export type AttemptResult =
  | 'delivered'
  | 'retry_scheduled'
  | 'failed'
  | 'not_due'
  | 'not_pending'
  | 'endpoint_gone'
  | 'lost_race';

/**
 * Makes the next attempt of a pending delivery when it is due: one signed POST, its outcome
 * persisted, the following attempt scheduled by the retry policy. A deleted or disabled endpoint
 * ends the delivery without a request.
 */
export async function attemptDelivery(
  services: Services,
  deliveryId: string,
  random: () => number = Math.random,
): Promise<AttemptResult> {
  const delivery = await services.webhooks.getDelivery(deliveryId);
  if (delivery?.status !== 'pending') return 'not_pending';
  const now = epochSeconds(services.clock);
  if (delivery.next_attempt_at !== null && delivery.next_attempt_at > now) {
    await enqueueDelivery(services, deliveryId, delivery.next_attempt_at - now);
    return 'not_due';
  }
  if (!(await services.webhooks.claimAttempt(deliveryId, delivery.attempt, now, leaseEnd(services, now))))
    return 'lost_race';
  const [endpoint, event] = await Promise.all([
    services.webhooks.getEndpoint(delivery.endpoint_id),
    services.webhooks.getEvent(delivery.event_id),
  ]);
  if (endpoint?.status !== 'enabled' || !event) {
    const ended = {
      status_code: null,
      duration_ms: 0,
      error: 'the webhook endpoint was deleted',
      retryAfterSeconds: null,
    };
    await services.webhooks.recordAttempt(
      deliveryId,
      delivery.attempt,
      { ...settledFields(delivery.attempt, ended), status: 'failed', next_attempt_at: null },
      attemptLog(delivery.attempt, now, ended),
    );
    return 'endpoint_gone';
  }
  return attemptClaimed(services, delivery, endpoint, event.event, now, random);
}

/** A claimed attempt stays claimed this long past `now`: the request's timeout and a margin. */
function leaseEnd(services: Services, now: number): number {
  return now + Math.ceil(services.config.webhookTimeoutMs / 1000) + 5;
}

/** The attempt after `delivery.attempt`, claimed at `now`: the signed POST, its outcome recorded, the next one scheduled. */
async function attemptClaimed(
  services: Services,
  delivery: DeliveryRecord,
  endpoint: WebhookEndpointRecord,
  event: WebhookEvent,
  now: number,
  random: () => number,
): Promise<AttemptResult> {
  const attempt = delivery.attempt + 1;
  const outcome = await services.webhookSender.send(deliveryRequest(services, endpoint, event, attempt));
  const delivered = isDelivered(outcome.statusCode);
  const firstAttemptAt = delivery.attempts[0]?.at ?? now;
  const delay = delivered
    ? null
    : nextAttemptDelaySeconds(attempt, now - firstAttemptAt, random, outcome.retryAfterSeconds);
  const status = delivered ? 'delivered' : delay === null ? 'failed' : 'pending';
  const nextAttemptAt = delay === null ? null : epochSeconds(services.clock) + delay;
  const recorded = await services.webhooks.recordAttempt(
    delivery.id,
    delivery.attempt,
    { ...settledFields(attempt, toFields(outcome)), status, next_attempt_at: nextAttemptAt },
    attemptLog(attempt, now, toFields(outcome)),
  );
  if (!recorded) return 'lost_race';
  services.metrics.count('WebhookDeliveries', 1, { outcome: status === 'pending' ? 'retry_scheduled' : status });
  if (status === 'pending') await enqueueDelivery(services, delivery.id, delay!);
  return status === 'pending' ? 'retry_scheduled' : status;
}

interface OutcomeFields {
  status_code: number | null;
  duration_ms: number;
  error: string | null;
}

function toFields(outcome: SendOutcome): OutcomeFields {
  return { status_code: outcome.statusCode, duration_ms: outcome.durationMs, error: outcome.error };
}

function settledFields(attempt: number, fields: OutcomeFields) {
  return { attempt, status_code: fields.status_code, duration_ms: fields.duration_ms, error: fields.error };
}

function attemptLog(attempt: number, at: number, fields: OutcomeFields) {
  return { attempt, at, ...fields };
}

/** Sends an event again, as a new delivery (with a fresh retry schedule), to one endpoint or to every subscribed one. */
export async function redeliverEvent(
  services: Services,
  record: EventRecord,
  endpoints: readonly WebhookEndpointRecord[],
): Promise<DeliveryRecord[]> {
  const deliveries = endpoints.map((endpoint) =>
    newDelivery(services, timeOrderedId('whd', services.clock.nowMs()), record.event, endpoint),
  );
  await Promise.all(deliveries.map((delivery) => services.webhooks.createDelivery(delivery)));
  await Promise.all(deliveries.map((delivery) => enqueueDelivery(services, delivery.id)));
  return deliveries;
}

/** Re-sends what a crash or a lost message left behind: undispatched events, overdue deliveries. */
export async function redriveWebhooks(
  services: Services,
  limit = 100,
): Promise<{ events: number; deliveries: number }> {
  const now = epochSeconds(services.clock);
  const overdue = await services.webhooks.listOverdue(now, limit);
  await services.webhooks.postponeOverdue(overdue, now + DELIVERY_GRACE_SECONDS);
  await Promise.all([
    ...overdue.eventIds.map((id) => services.webhookQueue.send({ event_id: id }).catch(() => undefined)),
    ...overdue.deliveryIds.map((id) => enqueueDelivery(services, id)),
  ]);
  return { events: overdue.eventIds.length, deliveries: overdue.deliveryIds.length };
}
