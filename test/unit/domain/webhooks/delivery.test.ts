import { createHmac } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { epochSeconds } from '../../../../lambdas/domain/kernel/clock.js';
import { InjectedFault } from '../../../../lambdas/domain/kernel/faults.js';
import { attemptDelivery, dispatchEvent, redriveWebhooks } from '../../../../lambdas/domain/webhooks/delivery.js';
import { createWebhookEndpoint } from '../../../../lambdas/domain/webhooks/endpoints.js';
import type {
  DeliveryRecord,
  EventRecord,
  WebhookEndpointRecord,
} from '../../../../lambdas/domain/webhooks/records.js';
import {
  JITTER,
  LAST_ATTEMPT_AFTER_SECONDS,
  MAX_ATTEMPTS,
  RETRY_DELAYS_SECONDS,
} from '../../../../lambdas/domain/webhooks/retry-policy.js';
import { type InMemoryWorld, inMemoryWorld } from '../../../support/in-memory/services.js';

// Webhook delivery on in-memory ports: fan-out, signed attempts, the retry schedule and its claims.

let { services, faults, org } = {} as InMemoryWorld;

beforeEach(async () => {
  ({ services, faults, org } = await inMemoryWorld());
});

async function endpoint(
  events: WebhookEndpointRecord['enabled_events'] = ['job.succeeded'],
): Promise<WebhookEndpointRecord> {
  return createWebhookEndpoint(services, org.organization.id, {
    url: `https://hooks.example.com/${events.join('-')}`,
    enabled_events: events,
  });
}

/** An event in the outbox, not yet dispatched. */
async function event(type: EventRecord['event']['type'] = 'job.succeeded'): Promise<EventRecord> {
  const created = epochSeconds(services.clock);
  const record: EventRecord = {
    event: {
      id: `evt_${Math.random().toString(36).slice(2, 12)}`,
      object: 'event',
      type,
      api_version: services.config.apiVersion,
      created,
      data: { job: { id: 'job_1', object: 'job', endpoint: 'plate.read', status: 'succeeded' } as never, stage: null },
    },
    org_id: org.organization.id,
    job_id: 'job_1',
    livemode: false,
    dispatched: false,
  };
  await services.uow.commit([{ kind: 'createEvent', record, dispatchDueAt: created + 60 }]);
  return record;
}

const deliveriesOf = async (endpointId: string) =>
  (await services.webhooks.listDeliveries({ endpointId, limit: 100 })).items;

/** An endpoint listening for `type`, and the delivery of one such event whose first attempt failed: its next attempt is pending. */
async function failedOnce(
  type: EventRecord['event']['type'] = 'job.succeeded',
): Promise<{ listening: WebhookEndpointRecord; delivery: DeliveryRecord }> {
  const listening = await endpoint([type]);
  services.webhookSender.answer({ statusCode: 500 });
  await dispatchEvent(services, (await event(type)).event.id);
  const [delivery] = await deliveriesOf(listening.id);
  return { listening, delivery: delivery! };
}

/** Moves the clock to the delivery's next attempt. */
function untilDue(delivery: DeliveryRecord): void {
  services.clock.advance((delivery.next_attempt_at! - epochSeconds(services.clock)) * 1000);
}

describe('dispatch', () => {
  it('creates one delivery per subscribed endpoint, posts the event signed with the endpoint secret, and marks it dispatched', async () => {
    const listening = await endpoint(['job.succeeded']);
    await endpoint(['job.failed']);
    const record = await event('job.succeeded');
    expect(await dispatchEvent(services, record.event.id)).toBe(1);
    expect((await services.webhooks.getEvent(record.event.id))!.dispatched).toBe(true);
    const [delivery] = await deliveriesOf(listening.id);
    expect(delivery).toMatchObject({ status: 'delivered', attempt: 1, status_code: 200 });
    const [request] = services.webhookSender.requests;
    expect(request!.url).toBe(listening.url);
    expect(request!.headers).toMatchObject({
      'Svc-Event-Id': record.event.id,
      'Svc-Delivery-Attempt': '1',
      'webhook-id': record.event.id,
    });
    const [, t, v1] = /^t=(\d+),v1=([0-9a-f]+)$/.exec(request!.headers['Svc-Signature']!)!;
    expect(v1).toBe(createHmac('sha256', listening.secrets[0]!.secret).update(`${t}.${request!.body}`).digest('hex'));
    // a repeated dispatch (a redelivered message) creates and sends nothing
    expect(await dispatchEvent(services, record.event.id)).toBe(0);
    expect(services.webhookSender.requests).toHaveLength(1);
  });

  it('a crash before the event is marked dispatched re-dispatches without a second delivery, and the claimed attempt is made once its claim lapses', async () => {
    const listening = await endpoint();
    const record = await event();
    faults.arm('webhooks.before_dispatched');
    await expect(dispatchEvent(services, record.event.id)).rejects.toBeInstanceOf(InjectedFault);
    expect((await services.webhooks.getEvent(record.event.id))!.dispatched).toBe(false);
    expect(await dispatchEvent(services, record.event.id)).toBe(1);
    const [delivery] = await deliveriesOf(listening.id);
    expect(delivery).toMatchObject({ status: 'pending', attempt: 0 });
    // the crashed worker's claim still holds the first attempt: nobody sends it twice
    expect(services.webhookSender.requests).toHaveLength(0);
    services.clock.advance(120_000);
    expect(await redriveWebhooks(services)).toEqual({ events: 0, deliveries: 1 });
    expect(await attemptDelivery(services, delivery!.id)).toBe('delivered');
    expect(services.webhookSender.requests).toHaveLength(1);
  });
});

describe('retries', () => {
  it('follow the schedule with its jitter after each failure, and the last failure ends the delivery failed', async () => {
    const listening = await endpoint();
    services.webhookSender.standing = { statusCode: 500, durationMs: 3, error: null, retryAfterSeconds: null };
    const record = await event();
    await dispatchEvent(services, record.event.id);
    const [first] = await deliveriesOf(listening.id);
    const gaps: number[] = [];
    let delivery = first!;
    while (delivery.status === 'pending') {
      const now = epochSeconds(services.clock);
      gaps.push(delivery.next_attempt_at! - now);
      expect(services.webhookQueue.drain()).toEqual([{ delivery_id: delivery.id }]);
      services.clock.advance((delivery.next_attempt_at! - now) * 1000);
      await attemptDelivery(services, delivery.id, () => 0.5);
      delivery = (await services.webhooks.getDelivery(delivery.id))!;
    }
    expect(delivery).toMatchObject({
      status: 'failed',
      attempt: MAX_ATTEMPTS,
      next_attempt_at: null,
      status_code: 500,
    });
    expect(delivery.attempts).toHaveLength(MAX_ATTEMPTS);
    // the regular gaps, then one more that lands the last attempt 24 h after the first
    expect(gaps).toHaveLength(RETRY_DELAYS_SECONDS.length + 1);
    RETRY_DELAYS_SECONDS.forEach((scheduled, index) => {
      expect(gaps[index]).toBeGreaterThanOrEqual(Math.floor(scheduled * (1 - JITTER)));
      expect(gaps[index]).toBeLessThanOrEqual(Math.ceil(scheduled * (1 + JITTER)));
    });
    expect(gaps.reduce((sum, gap) => sum + gap, 0)).toBe(LAST_ATTEMPT_AFTER_SECONDS);
    expect(services.webhookSender.requests.map((request) => request.headers['Svc-Delivery-Attempt'])).toEqual(
      Array.from({ length: MAX_ATTEMPTS }, (_, index) => String(index + 1)),
    );
  });

  it('honour Retry-After up to the next slot, stop at the first 2xx, and count a 3xx as a failure', async () => {
    const listening = await endpoint();
    services.webhookSender.answer({ statusCode: 503, retryAfterSeconds: 90 }, { statusCode: 302 }, { statusCode: 204 });
    const record = await event();
    await dispatchEvent(services, record.event.id);
    let [delivery] = await deliveriesOf(listening.id);
    expect(delivery!.next_attempt_at! - epochSeconds(services.clock)).toBe(90);
    services.clock.advance(90_000);
    expect(await attemptDelivery(services, delivery!.id, () => 0.5)).toBe('retry_scheduled');
    [delivery] = await deliveriesOf(listening.id);
    services.clock.advance((delivery!.next_attempt_at! - epochSeconds(services.clock)) * 1000);
    expect(await attemptDelivery(services, delivery!.id, () => 0.5)).toBe('delivered');
    expect((await services.webhooks.getDelivery(delivery!.id))!.attempts.map((attempt) => attempt.status_code)).toEqual(
      [503, 302, 204],
    );
  });

  it('an attempt not yet due sends nothing and waits in the queue for the rest of its delay', async () => {
    const { delivery } = await failedOnce();
    services.webhookQueue.drain();
    services.clock.advance(10_000);
    expect(await attemptDelivery(services, delivery.id)).toBe('not_due');
    expect(services.webhookQueue.sent).toEqual([
      { message: { delivery_id: delivery.id }, delaySeconds: delivery.next_attempt_at! - epochSeconds(services.clock) },
    ]);
    expect(services.webhookSender.requests).toHaveLength(1);
  });

  it('two workers with the same message send the attempt once; a deleted endpoint ends the delivery without a request', async () => {
    const { delivery } = await failedOnce();
    untilDue(delivery);
    const results = await Promise.all([attemptDelivery(services, delivery.id), attemptDelivery(services, delivery.id)]);
    expect(results.sort()).toEqual(['delivered', 'lost_race']);
    expect(services.webhookSender.requests).toHaveLength(2);

    const { listening: other, delivery: pending } = await failedOnce('job.failed');
    await services.webhooks.deleteEndpoint(other);
    untilDue(pending);
    expect(await attemptDelivery(services, pending.id)).toBe('endpoint_gone');
    expect(await services.webhooks.getDelivery(pending.id)).toMatchObject({
      status: 'failed',
      error: 'the webhook endpoint was deleted',
    });
    expect(services.webhookSender.requests).toHaveLength(3);
  });

  it('a delivery whose message was lost is re-sent by the sweeper a grace period after it was due', async () => {
    const { delivery } = await failedOnce();
    services.webhookQueue.drain();
    untilDue(delivery);
    expect(await redriveWebhooks(services)).toEqual({ events: 0, deliveries: 0 });
    services.clock.advance(61_000);
    expect(await redriveWebhooks(services)).toEqual({ events: 0, deliveries: 1 });
    expect(services.webhookQueue.drain()).toEqual([{ delivery_id: delivery.id }]);
    expect(await attemptDelivery(services, delivery.id)).toBe('delivered');
  });
});
