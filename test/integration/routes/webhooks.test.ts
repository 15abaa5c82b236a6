import { createHmac } from 'node:crypto';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { Webhook } from 'standardwebhooks';
import Stripe from 'stripe';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CATALOGUE, type EndpointSlug } from '../../../lambdas/domain/catalogue/catalogue.js';
import { ArmedFault } from '../../../lambdas/domain/kernel/faults.js';
import { timeOrderedId } from '../../../lambdas/domain/kernel/ids.js';
import { dispatchEvent } from '../../../lambdas/domain/webhooks/delivery.js';
import {
  LAST_ATTEMPT_AFTER_SECONDS,
  MAX_ATTEMPTS,
  RETRY_DELAYS_SECONDS,
} from '../../../lambdas/domain/webhooks/retry-policy.js';
import { signatureHeaders } from '../../../lambdas/domain/webhooks/signing.js';
import { TEST_EVENTS_PER_MINUTE } from '../../../lambdas/domain/webhooks/test-event.js';
import { settled } from '../../support/endpoint-calls.js';
import { call, eventually, expectEnvelope, formWith, imageFile } from '../../support/http.js';
import { asRole } from '../../support/management.js';
import { Receiver } from '../../support/receiver.js';
import { sharedTestService } from '../../support/service.js';

const stripe = new Stripe('sk_test_unused');
const faults = new ArmedFault();
let receiver: Receiver;

const svc = sharedTestService({ faults, config: { webhookTimeoutMs: 1500 } });
beforeEach(() => {
  // receivers verify timestamps against the real time: each test starts from it
  svc.clock.reset();
});
afterEach(async () => {
  await receiver?.stop();
  // every test subscribes its own receiver: the others are removed so they see nothing more
  const listed = await asRole(svc, 'admin', 'GET', '/mgmt/v1/webhook-endpoints');
  for (const endpoint of listed.body.data)
    await asRole(svc, 'admin', 'DELETE', `/mgmt/v1/webhook-endpoints/${endpoint.id}`);
});

async function subscribe(events = ['job.succeeded', 'job.failed']): Promise<{ id: string; secret: string }> {
  receiver = await new Receiver().start();
  const created = await asRole(svc, 'admin', 'POST', '/mgmt/v1/webhook-endpoints', {
    json: { url: receiver.url, enabled_events: events },
  });
  expect(created.status).toBe(201);
  return created.body;
}

async function plateJob(headers: Record<string, string> = {}): Promise<string> {
  const admitted = await call(svc.baseUrl, 'POST', '/v1/plate.read', {
    key: svc.org.testKey,
    form: formWith('image', [imageFile(`hook-${Math.random()}`)]),
    headers,
  });
  expect(admitted.status).toBe(202);
  return admitted.body.id;
}

async function deliveries(endpointId: string): Promise<any[]> {
  const page = await asRole(svc, 'admin', 'GET', `/mgmt/v1/webhook-endpoints/${endpointId}/deliveries?limit=100`);
  expect(page.status).toBe(200);
  return page.body.data;
}

/**
 * Waits until the sender has recorded the delivery's last attempt (the receiver has seen it). The
 * receiver sees a request before the sender records its outcome, and the sender counts the next
 * attempt from the clock as it records: time moved in between puts the next attempt a whole delay
 * past the jump, waited on the queue in real time, an interleaving no continuous clock makes.
 */
async function attemptsRecorded(endpointId: string): Promise<void> {
  await eventually(async () => (await deliveries(endpointId))[0]?.attempt === receiver.requests.length);
}

/** Moves time past the next attempt (and the grace after which the sweeper re-sends), then sweeps. */
async function nextSlot(seconds: number): Promise<void> {
  svc.clock.advance((seconds + 61) * 1000);
  await svc.sweeper.sweep();
}

/** Signed URLs are re-signed on every read: compare jobs without them. */
function withoutSignatures(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSignatures);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => k !== 'url' && k !== 'expires_at')
        .map(([k, v]) => [k, withoutSignatures(v)]),
    );
  return value;
}

describe('a settled job reaches a subscribed receiver, signed', () => {
  it('job.succeeded carries the job exactly as GET /v1/jobs/{id} shows it, and both Stripe and standardwebhooks verify it', async () => {
    const endpoint = await subscribe();
    const jobId = await plateJob();
    const request = await eventually(async () =>
      receiver.requests.find((r) => JSON.parse(r.body).data.job.id === jobId),
    );
    const event = JSON.parse(request.body);
    expect(event).toMatchObject({
      object: 'event',
      type: 'job.succeeded',
      api_version: '2026-08-01',
      data: { stage: null },
    });
    expect(event.id).toMatch(/^evt_/);
    const job = await settled(svc.baseUrl, svc.org.testKey, jobId);
    expect(withoutSignatures(event.data.job)).toEqual(withoutSignatures(job.body));
    expect(request.headers['svc-event-id']).toBe(event.id);
    expect(request.headers['svc-delivery-attempt']).toBe('1');
    expect(request.headers['webhook-id']).toBe(event.id);
    const verified = stripe.webhooks.constructEvent(
      request.body,
      request.headers['svc-signature'] as string,
      endpoint.secret,
      300,
    );
    expect(verified.id).toBe(event.id);
    const standard = new Webhook(endpoint.secret).verify(request.body, request.headers as Record<string, string>) as {
      id: string;
    };
    expect(standard.id).toBe(event.id);
  });

  it('a tampered body or a stale timestamp is refused by both verifiers', async () => {
    const endpoint = await subscribe();
    await plateJob();
    const request = await eventually(async () => receiver.requests[0]);
    const tampered = request.body.replace('"job.succeeded"', '"job.failed"');
    expect(() =>
      stripe.webhooks.constructEvent(tampered, request.headers['svc-signature'] as string, endpoint.secret, 300),
    ).toThrow();
    expect(() => new Webhook(endpoint.secret).verify(tampered, request.headers as Record<string, string>)).toThrow();
    const stale = Math.floor(Date.now() / 1000) - 600;
    const staleHeaders = signatureHeaders([endpoint.secret], JSON.parse(request.body).id, stale, request.body);
    expect(() =>
      stripe.webhooks.constructEvent(request.body, staleHeaders['Svc-Signature']!, endpoint.secret, 300),
    ).toThrow(/tolerance/i);
    expect(() => new Webhook(endpoint.secret).verify(request.body, staleHeaders)).toThrow();
  });

  it('a failed job sends job.failed with its error and nothing charged', async () => {
    await subscribe(['job.failed']);
    const jobId = await plateJob({ 'X-Svc-Test-Scenario': 'model_error' });
    const event = await eventually(async () => receiver.events().find((e) => e.data.job.id === jobId));
    expect(event.type).toBe('job.failed');
    expect(event.data.job).toMatchObject({
      status: 'failed',
      result: null,
      credits: { charged: 0 },
      error: { code: 'model_inference_failed' },
    });
  });

  it('an endpoint receives only the types it subscribed to', async () => {
    await subscribe(['job.failed']);
    const ok = await plateJob();
    await settled(svc.baseUrl, svc.org.testKey, ok);
    const failed = await plateJob({ 'X-Svc-Test-Scenario': 'model_error' });
    await eventually(async () => receiver.events().find((e) => e.data.job.id === failed));
    expect(receiver.events().some((e) => e.data.job.id === ok)).toBe(false);
  });
});

describe('retries', () => {
  it('a receiver down for hours still gets the event, same id, attempt numbers counting up', async () => {
    const endpoint = await subscribe();
    receiver.status = 503;
    await plateJob();
    await eventually(async () => receiver.requests.length === 1);
    for (const delay of RETRY_DELAYS_SECONDS.slice(0, 4)) {
      await attemptsRecorded(endpoint.id);
      const before = receiver.requests.length;
      await nextSlot(delay * 1.2);
      await eventually(async () => receiver.requests.length === before + 1);
    }
    receiver.status = 200;
    await attemptsRecorded(endpoint.id);
    await nextSlot(RETRY_DELAYS_SECONDS[4] * 1.2);
    await eventually(async () => (await deliveries(endpoint.id))[0]?.status === 'delivered');
    const ids = new Set(receiver.requests.map((r) => r.headers['svc-event-id']));
    expect(ids.size).toBe(1);
    expect(receiver.requests.map((r) => r.headers['svc-delivery-attempt'])).toEqual(['1', '2', '3', '4', '5', '6']);
    expect((await deliveries(endpoint.id))[0]).toMatchObject({
      attempt: 6,
      status: 'delivered',
      status_code: 200,
      next_attempt_at: null,
    });
  });

  it('the whole schedule: nine attempts over ~23 hours with ±20 % jitter, a last one 24 h after the first, then failed and kept in the log', async () => {
    const endpoint = await subscribe();
    receiver.status = 500;
    await plateJob();
    await eventually(async () => receiver.requests.length === 1);
    const gaps: number[] = [];
    const pendingRecord = async () => {
      const [pending] = await deliveries(endpoint.id);
      expect(pending.status).toBe('pending');
      return (await svc.services.webhooks.getDelivery(pending.id))!;
    };
    for (const _ of RETRY_DELAYS_SECONDS) {
      // the wait the policy chose after the attempt just made; time moves to it (and the sweeper's grace)
      await attemptsRecorded(endpoint.id);
      const record = await pendingRecord();
      gaps.push(record.next_attempt_at! - record.attempts.at(-1)!.at);
      const before = receiver.requests.length;
      await nextSlot(record.next_attempt_at! - Math.floor(svc.clock.nowMs() / 1000));
      await eventually(async () => receiver.requests.length === before + 1);
    }
    RETRY_DELAYS_SECONDS.forEach((delay, i) => {
      expect(gaps[i]).toBeGreaterThanOrEqual(Math.floor(delay * 0.8));
      expect(gaps[i]).toBeLessThanOrEqual(Math.ceil(delay * 1.2) + 1);
    });
    expect(gaps.reduce((a, b) => a + b, 0) / 3600).toBeGreaterThan(18);
    await attemptsRecorded(endpoint.id);
    const afterNinth = (await svc.services.webhooks.getDelivery((await deliveries(endpoint.id))[0].id))!;
    const first = afterNinth.attempts[0]!.at;
    if (afterNinth.status === 'pending') {
      // the last attempt is due 24 h after the first, never sooner
      expect(afterNinth.next_attempt_at! - first).toBeGreaterThanOrEqual(LAST_ATTEMPT_AFTER_SECONDS);
      expect(afterNinth.next_attempt_at! - first).toBeLessThanOrEqual(LAST_ATTEMPT_AFTER_SECONDS + 2);
      await nextSlot(afterNinth.next_attempt_at! - Math.floor(svc.clock.nowMs() / 1000));
    }
    const last = await eventually(async () => {
      const record = await svc.services.webhooks.getDelivery(afterNinth.id);
      return record?.status === 'failed' ? record : null;
    });
    // ten attempts, or nine when the jitter already carried the ninth past the 24 h mark
    const made = afterNinth.status === 'pending' ? MAX_ATTEMPTS : MAX_ATTEMPTS - 1;
    expect(last).toMatchObject({ attempt: made, status: 'failed', status_code: 500, next_attempt_at: null });
    expect(last.attempts.at(-1)!.at - first).toBeGreaterThanOrEqual(LAST_ATTEMPT_AFTER_SECONDS);
    expect(receiver.requests).toHaveLength(made);
    expect((await deliveries(endpoint.id))[0]).toMatchObject({
      attempt: made,
      status: 'failed',
      next_attempt_at: null,
    });
  });

  it('Retry-After is honoured up to the following slot', async () => {
    const endpoint = await subscribe();
    receiver.status = 429;
    receiver.retryAfter = '90';
    await plateJob();
    await eventually(async () => (await deliveries(endpoint.id))[0]?.attempt === 1);
    const [pending] = await deliveries(endpoint.id);
    // the first gap is 30 s ± 20 %: the receiver's 90 s wins, still under the next slot (120 s)
    expect(pending.next_attempt_at - pending.created).toBeGreaterThanOrEqual(89);
    expect(pending.next_attempt_at - pending.created).toBeLessThanOrEqual(92);
  });

  it('deleting the endpoint during backoff stops every later attempt', async () => {
    const endpoint = await subscribe();
    receiver.status = 500;
    await plateJob();
    await eventually(async () => receiver.requests.length === 1);
    await attemptsRecorded(endpoint.id);
    const [pending] = await deliveries(endpoint.id);
    expect(pending.status).toBe('pending');
    expect((await asRole(svc, 'admin', 'DELETE', `/mgmt/v1/webhook-endpoints/${endpoint.id}`)).body).toEqual({
      id: endpoint.id,
      object: 'webhook_endpoint',
      deleted: true,
    });
    await nextSlot(RETRY_DELAYS_SECONDS[0] * 1.2);
    await nextSlot(RETRY_DELAYS_SECONDS[1] * 1.2);
    const delivery = await eventually(async () => {
      const record = await svc.services.webhooks.getDelivery(pending.id);
      return record?.status === 'failed' ? record : null;
    });
    expect(delivery.error).toMatch(/deleted/);
    expect(receiver.requests).toHaveLength(1);
  });

  it('a hanging receiver does not hold up deliveries to another', async () => {
    await subscribe();
    const hanging = receiver;
    hanging.delayMs = 5000;
    const fast = await new Receiver().start();
    try {
      const created = await asRole(svc, 'admin', 'POST', '/mgmt/v1/webhook-endpoints', {
        json: { url: fast.url, enabled_events: ['job.succeeded'] },
      });
      const started = Date.now();
      const first = await plateJob();
      const second = await plateJob();
      await eventually(
        async () => [first, second].every((id) => fast.events().some((e) => e.data.job.id === id)),
        10_000,
      );
      expect(Date.now() - started).toBeLessThan(4000);
      await asRole(svc, 'admin', 'DELETE', `/mgmt/v1/webhook-endpoints/${created.body.id}`);
    } finally {
      await fast.stop();
    }
  });
});

describe('exactly one event per settled job', () => {
  it('a crash between the settlement commit and the enqueue loses nothing: the sweeper sends it, once', async () => {
    const endpoint = await subscribe();
    faults.arm('settlement.after_commit');
    const jobId = await plateJob();
    await eventually(async () => (await svc.services.jobs.get(jobId))?.status === 'succeeded');
    await nextSlot(0);
    await eventually(async () => receiver.requests.length === 1);
    await nextSlot(0);
    const events = (await asRole(svc, 'admin', 'GET', `/mgmt/v1/events?job_id=${jobId}`)).body.data;
    expect(events).toHaveLength(1);
    expect((await deliveries(endpoint.id)).filter((d) => d.event_id === events[0].id)).toHaveLength(1);
  });

  it('a repeated dispatch (SQS redelivery, a crash before the event is marked) creates no second delivery', async () => {
    const endpoint = await subscribe();
    faults.arm('webhooks.before_dispatched');
    const jobId = await plateJob();
    const event = await eventually(
      async () => (await asRole(svc, 'admin', 'GET', `/mgmt/v1/events?job_id=${jobId}`)).body.data[0],
    );
    // the first dispatch created the delivery, then crashed before marking the event: run it again, twice
    await eventually(async () => (await deliveries(endpoint.id)).length === 1);
    await dispatchEvent(svc.services, event.id);
    await dispatchEvent(svc.services, event.id);
    expect(receiver.requests).toHaveLength(0);
    // the crashed dispatch had claimed the first attempt (timeout 2 s + 5 s margin): the sweeper makes it once that claim runs out
    await nextSlot(7);
    await eventually(async () => receiver.requests.length >= 1);
    await nextSlot(0);
    expect((await deliveries(endpoint.id)).filter((d) => d.event_id === event.id)).toHaveLength(1);
    expect(receiver.deliveriesOf(event.id)).toHaveLength(1);
  });
});

describe('the delivery log: filters and cursors', () => {
  const log = async (endpointId: string, query: string) =>
    asRole(svc, 'admin', 'GET', `/mgmt/v1/webhook-endpoints/${endpointId}/deliveries?${query}`);
  const ids = (page: { body: { data: Array<{ id: string }> } }) => page.body.data.map((delivery) => delivery.id).sort();
  const test = async (endpointId: string, slug: string) =>
    (
      await asRole(svc, 'admin', 'POST', `/mgmt/v1/webhook-endpoints/${endpointId}/test`, {
        json: { event_type: 'job.succeeded', endpoint: slug },
      })
    ).body.delivery_id as string;

  it('filters by status and by the job endpoint of the event, pages through a filter, and validates both', async () => {
    const endpoint = await subscribe();
    const deliveredPlate = await test(endpoint.id, 'plate.read');
    const deliveredVin = await test(endpoint.id, 'vin.read');
    receiver.status = 500;
    const failedPlate = await test(endpoint.id, 'plate.read');
    const failedVin = await test(endpoint.id, 'vin.read');
    receiver.status = 200;
    // a delivery stored before the job endpoint was kept: it has a status, but no endpoint to match
    const { job_endpoint: _slug, ...older } = (await svc.services.webhooks.getDelivery(failedPlate))!;
    const legacy = { ...older, id: 'whd_1111111111111111111112' };
    expect(await svc.services.webhooks.createDelivery(legacy)).toBe(true);

    expect(ids(await log(endpoint.id, 'status=failed'))).toEqual([failedPlate, failedVin, legacy.id].sort());
    expect(ids(await log(endpoint.id, 'status=delivered'))).toEqual([deliveredPlate, deliveredVin].sort());
    expect(ids(await log(endpoint.id, 'endpoint=plate.read'))).toEqual([deliveredPlate, failedPlate].sort());
    expect(ids(await log(endpoint.id, 'status=failed&endpoint=vin.read'))).toEqual([failedVin]);
    expect(ids(await log(endpoint.id, 'status=pending'))).toEqual([]);

    // one at a time through a filter: every match once, has_more false only at the end
    const seen: string[] = [];
    let after = '';
    for (let page = 0; page < 5; page += 1) {
      const answer = await log(endpoint.id, `status=failed&limit=1${after}`);
      expect(answer.body.data).toHaveLength(1);
      seen.push(answer.body.data[0].id);
      if (!answer.body.has_more) break;
      after = `&starting_after=${answer.body.data[0].id}`;
    }
    expect(seen.sort()).toEqual([failedPlate, failedVin, legacy.id].sort());

    expectEnvelope(
      await log(endpoint.id, 'endpoint=plate.write'),
      400,
      'invalid_request',
      'parameter_invalid',
      'endpoint',
    );
    expectEnvelope(await log(endpoint.id, 'status=lost'), 400, 'invalid_request', 'parameter_invalid', 'status');
  });

  it('an unknown cursor continues after the position its id encodes, never from the first page again', async () => {
    const endpoint = await subscribe();
    await test(endpoint.id, 'plate.read');
    await test(endpoint.id, 'vin.read');
    const before = await log(endpoint.id, 'starting_after=whd_11111111111');
    expect(before.status).toBe(200);
    expect(before.body).toEqual({ object: 'list', data: [], has_more: false });
    // an id made after both (a cursor whose delivery is gone) has both after it
    const later = timeOrderedId('whd', svc.clock.nowMs() + 5000);
    expect((await log(endpoint.id, `starting_after=${later}`)).body.data).toHaveLength(2);
  });
});

describe('the test operation', () => {
  it('sends a signed synthetic event from the sandbox model and reports delivery; nothing billed, no job', async () => {
    const endpoint = await subscribe();
    const balance = await svc.services.accounts.getBalance(svc.org.organization.id, false);
    const answer = await asRole(svc, 'admin', 'POST', `/mgmt/v1/webhook-endpoints/${endpoint.id}/test`, {
      json: { event_type: 'job.succeeded', endpoint: 'vin.read' },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      delivered: true,
      status_code: 200,
      error: null,
      event: { type: 'job.succeeded', data: { job: { endpoint: 'vin.read', status: 'succeeded' } } },
    });
    expect(answer.body.delivery_id).toMatch(/^whd_/);
    const request = receiver.requests[0]!;
    expect(JSON.parse(request.body)).toEqual(answer.body.event);
    expect(
      stripe.webhooks.constructEvent(request.body, request.headers['svc-signature'] as string, endpoint.secret, 300).id,
    ).toBe(answer.body.event.id);
    expect(await svc.services.accounts.getBalance(svc.org.organization.id, false)).toBe(balance);
    expect(await svc.services.jobs.get(answer.body.event.data.job.id)).toBeNull();
    expect((await deliveries(endpoint.id))[0]).toMatchObject({
      id: answer.body.delivery_id,
      status: 'delivered',
      attempt: 1,
    });
  });

  it('refuses test events to one webhook endpoint past its limit a minute with 429, sending nothing', async () => {
    const endpoint = await subscribe();
    // all of it inside one fixed window: start a new one when less than 10 s of this one is left
    const intoWindow = Math.floor(svc.clock.nowMs() / 1000) % 60;
    if (intoWindow > 50) svc.clock.advance((60 - intoWindow) * 1000);
    for (let i = 0; i < TEST_EVENTS_PER_MINUTE; i++)
      expect((await asRole(svc, 'admin', 'POST', `/mgmt/v1/webhook-endpoints/${endpoint.id}/test`)).status).toBe(200);
    const sent = receiver.requests.length;
    const refused = await asRole(svc, 'admin', 'POST', `/mgmt/v1/webhook-endpoints/${endpoint.id}/test`);
    expectEnvelope(refused, 429, 'rate_limit', 'rate_limit_exceeded', null);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    expect(receiver.requests.length).toBe(sent);
    // another endpoint of the organisation has its own window
    expect(
      (await asRole(svc, 'admin', 'POST', `/mgmt/v1/webhook-endpoints/${(await subscribe()).id}/test`)).status,
    ).toBe(200);
  });

  it('builds a job.succeeded test event from the sandbox model of every endpoint', async () => {
    const endpoint = await subscribe();
    for (const slug of Object.keys(CATALOGUE) as EndpointSlug[]) {
      const answer = await asRole(svc, 'admin', 'POST', `/mgmt/v1/webhook-endpoints/${endpoint.id}/test`, {
        json: { event_type: 'job.succeeded', endpoint: slug },
      });
      expect({ slug, status: answer.status }).toEqual({ slug, status: 200 });
      expect(answer.body.event.data.job).toMatchObject({
        endpoint: slug,
        status: 'succeeded',
        result: expect.any(Object),
      });
    }
  });

  it('builds an inspections test event as an inspection: eight stages that ran, or a first stage that failed', async () => {
    const endpoint = await subscribe();
    const succeeded = await asRole(svc, 'admin', 'POST', `/mgmt/v1/webhook-endpoints/${endpoint.id}/test`, {
      json: { event_type: 'job.succeeded', endpoint: 'inspections' },
    });
    expect(succeeded.body.event.data.job).toMatchObject({
      endpoint: 'inspections',
      status: 'succeeded',
      result: { stages_succeeded: 8 },
      error: null,
    });
    expect(succeeded.body.event.data.job.stages.map((stage: { status: string }) => stage.status)).toEqual(
      Array(8).fill('succeeded'),
    );
    const failed = await asRole(svc, 'admin', 'POST', `/mgmt/v1/webhook-endpoints/${endpoint.id}/test`, {
      json: { event_type: 'job.failed', endpoint: 'inspections' },
    });
    expect(failed.body.event.data.job).toMatchObject({
      endpoint: 'inspections',
      status: 'failed',
      result: null,
      credits: { charged: 0 },
      error: {
        type: 'processing_error',
        code: 'model_inference_failed',
        message: expect.stringMatching(/^Stage onboard_walkaround \(video\.onboard\) failed: /),
      },
    });
    expect(failed.body.event.data.job.stages.map((stage: { status: string }) => stage.status)).toEqual([
      'failed',
      ...Array(7).fill('canceled'),
    ]);
    // filed under the endpoint it was built for
    const filed = await asRole(
      svc,
      'admin',
      'GET',
      `/mgmt/v1/webhook-endpoints/${endpoint.id}/deliveries?endpoint=inspections`,
    );
    expect(filed.body.data).toHaveLength(2);
  });

  it('answers 200 with delivered false for an erroring or unreachable receiver, and builds every event type', async () => {
    const endpoint = await subscribe();
    receiver.status = 500;
    const failing = await asRole(svc, 'admin', 'POST', `/mgmt/v1/webhook-endpoints/${endpoint.id}/test`, {
      json: { event_type: 'job.failed' },
    });
    expect(failing.body).toMatchObject({
      delivered: false,
      status_code: 500,
      error: null,
      event: { type: 'job.failed', data: { job: { status: 'failed' } } },
    });
    receiver.status = 200;
    const stage = await asRole(svc, 'admin', 'POST', `/mgmt/v1/webhook-endpoints/${endpoint.id}/test`, {
      json: { event_type: 'inspection.stage_completed', endpoint: 'damage.detect' },
    });
    expect(stage.body).toMatchObject({
      delivered: true,
      event: {
        type: 'inspection.stage_completed',
        data: {
          job: { endpoint: 'inspections', status: 'processing' },
          stage: { name: 'detect_damage', status: 'succeeded' },
        },
      },
    });
    // the stages before it settled too, the ones after it still queued
    expect(stage.body.event.data.job.stages.map((s: { status: string }) => s.status)).toEqual([
      ...Array(4).fill('succeeded'),
      ...Array(4).fill('queued'),
    ]);
    expect(stage.body.event.data.job).toMatchObject({ result: null, completed_at: null });
    const last = await asRole(svc, 'admin', 'POST', `/mgmt/v1/webhook-endpoints/${endpoint.id}/test`, {
      json: { event_type: 'inspection.stage_completed', endpoint: 'viewer.hotspots' },
    });
    // the last stage's event carries the settled inspection, as a real run's does
    expect(last.body).toMatchObject({
      delivered: true,
      event: {
        type: 'inspection.stage_completed',
        data: {
          job: {
            endpoint: 'inspections',
            status: 'succeeded',
            credits: { reserved: 0, charged: 0 },
            result: { stages_succeeded: 8 },
          },
          stage: { name: 'anchor_hotspots', stage: 8, status: 'succeeded' },
        },
      },
    });
    expect(last.body.event.data.job.completed_at).toEqual(expect.any(Number));
    expect(last.body.event.data.job.stages.every((s: { status: string }) => s.status === 'succeeded')).toBe(true);
    await receiver.stop();
    const unreachable = await asRole(svc, 'admin', 'POST', `/mgmt/v1/webhook-endpoints/${endpoint.id}/test`);
    expect(unreachable.status).toBe(200);
    expect(unreachable.body).toMatchObject({ delivered: false, status_code: null });
    expect(unreachable.body.error).toMatch(/ECONNREFUSED/);
  });
});

describe('events API and redelivery', () => {
  it('lists events written on the old whole-event index beside new ones, newest first, paged and filtered', async () => {
    const doc = DynamoDBDocumentClient.from(svc.services.clients.dynamodb);
    const TableName = svc.services.infrastructure.tableName;
    const jobId = await plateJob();
    const newest = await eventually(
      async () => (await asRole(svc, 'admin', 'GET', `/mgmt/v1/events?job_id=${jobId}`)).body.data[0],
    );
    const stored = (await doc.send(new GetCommand({ TableName, Key: { pk: `EVT#${newest.id}`, sk: '#' } }))).Item!;
    // a new event is on the lean index only, its body compressed
    expect(stored).toMatchObject({ gsi4pk: `ORGEVTS#${svc.org.organization.id}`, gsi4sk: newest.id });
    expect(stored.event).toBeUndefined();
    expect(stored.event_gz).toBeInstanceOf(Uint8Array);
    expect(stored.gsi2pk).toBeUndefined();
    // the same event as the layout before the lean index stored it: whole, on gsi2, a moment older
    const oldId = timeOrderedId('evt', svc.clock.nowMs() - 1000);
    // (and its event whole, as it was stored before events were compressed)
    const { gsi4pk, gsi4sk, event_gz: _compressed, ...rest } = stored;
    const old = { ...rest, pk: `EVT#${oldId}`, gsi2pk: gsi4pk, gsi2sk: oldId, event: { ...newest, id: oldId } };
    await doc.send(new PutCommand({ TableName, Item: old }));
    const first = await asRole(svc, 'admin', 'GET', `/mgmt/v1/events?job_id=${jobId}&limit=1`);
    expect(first.body).toMatchObject({ has_more: true, data: [{ id: newest.id }] });
    const second = await asRole(
      svc,
      'admin',
      'GET',
      `/mgmt/v1/events?job_id=${jobId}&limit=1&starting_after=${newest.id}`,
    );
    expect(second.body).toMatchObject({ has_more: false, data: [{ ...newest, id: oldId }] });
    expect((await asRole(svc, 'admin', 'GET', `/mgmt/v1/events?job_id=${jobId}&type=job.failed`)).body.data).toEqual(
      [],
    );
  });

  it('lists events with filters, retrieves one, and redelivers it as a new delivery with the same event id', async () => {
    const endpoint = await subscribe();
    const since = Math.floor(svc.clock.nowMs() / 1000);
    const jobId = await plateJob();
    await eventually(async () => receiver.requests.length === 1);
    const byJob = await asRole(svc, 'admin', 'GET', `/mgmt/v1/events?job_id=${jobId}`);
    expect(byJob.body.data).toHaveLength(1);
    const event = byJob.body.data[0];
    expect(
      (await asRole(svc, 'admin', 'GET', `/mgmt/v1/events?type=job.failed&job_id=${jobId}`)).body.data,
    ).toHaveLength(0);
    expect(
      (await asRole(svc, 'admin', 'GET', `/mgmt/v1/events?created_gte=${since}`)).body.data.map(
        (e: { id: string }) => e.id,
      ),
    ).toContain(event.id);
    expect((await asRole(svc, 'admin', 'GET', `/mgmt/v1/events?created_gte=${since + 100000}`)).body.data).toHaveLength(
      0,
    );
    expect((await asRole(svc, 'admin', 'GET', `/mgmt/v1/events/${event.id}`)).body).toEqual(event);
    expect((await asRole(svc, 'admin', 'GET', '/mgmt/v1/events/evt_1111111111111111111111')).status).toBe(404);
    const again = await asRole(svc, 'admin', 'POST', `/mgmt/v1/events/${event.id}/redeliver`, {
      json: { endpoint_id: endpoint.id },
    });
    expect(again.status).toBe(202);
    expect(again.body.data).toHaveLength(1);
    await eventually(async () => receiver.requests.length === 2);
    expect(receiver.requests.map((r) => JSON.parse(r.body).id)).toEqual([event.id, event.id]);
    // the receiver answers before the worker records the outcome: wait for the record, not the request
    await expect
      .poll(async () => (await svc.services.webhooks.getDelivery(again.body.data[0].id))?.status)
      .toBe('delivered');
    const other = await asRole(svc, 'admin', 'GET', `/mgmt/v1/events/${event.id}`, { org: svc.otherOrg });
    expect(other.status).toBe(403);
  });

  it('pages events newest first', async () => {
    await subscribe();
    const ids = [await plateJob(), await plateJob(), await plateJob()];
    await eventually(async () => receiver.requests.length === 3);
    const first = await asRole(svc, 'admin', 'GET', '/mgmt/v1/events?limit=2');
    expect(first.body.data).toHaveLength(2);
    expect(first.body.has_more).toBe(true);
    const second = await asRole(svc, 'admin', 'GET', `/mgmt/v1/events?limit=2&starting_after=${first.body.data[1].id}`);
    const events: Array<{ id: string; data: { job: { id: string } } }> = [...first.body.data, ...second.body.data];
    // newest first by event id (the settle order, which concurrent workers may swap), no repeats
    const eventIds = events.map((e) => e.id);
    expect(eventIds).toEqual([...eventIds].sort().reverse());
    expect(new Set(eventIds).size).toBe(eventIds.length);
    expect(new Set(events.slice(0, 3).map((e) => e.data.job.id))).toEqual(new Set(ids));
  });
});

describe('endpoint management and secret rotation', () => {
  it('creates (secret once), lists and retrieves without the secret, refuses non-https and private destinations', async () => {
    const endpoint = await subscribe();
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const listed = await asRole(svc, 'admin', 'GET', '/mgmt/v1/webhook-endpoints');
    expect(listed.body.data[0]).toEqual({
      id: endpoint.id,
      object: 'webhook_endpoint',
      livemode: false,
      url: receiver.url,
      enabled_events: ['job.succeeded', 'job.failed'],
      description: null,
      api_version: '2026-08-01',
      status: 'enabled',
      created: expect.any(Number),
    });
    expect((await asRole(svc, 'admin', 'GET', `/mgmt/v1/webhook-endpoints/${endpoint.id}`)).body).toEqual(
      listed.body.data[0],
    );
    for (const url of [
      'http://example.com/hooks',
      'https://10.0.0.5/hooks',
      'https://169.254.169.254/latest',
      'ftp://example.com/x',
    ]) {
      const refused = await asRole(svc, 'admin', 'POST', '/mgmt/v1/webhook-endpoints', {
        json: { url, enabled_events: ['job.succeeded'] },
      });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatchObject({ code: 'url_not_public', param: 'url' });
    }
    const badType = await asRole(svc, 'admin', 'POST', '/mgmt/v1/webhook-endpoints', {
      json: { url: receiver.url, enabled_events: ['job.done'] },
    });
    expect(badType.status).toBe(400);
    expect((await asRole(svc, 'member', 'GET', '/mgmt/v1/webhook-endpoints')).status).toBe(403);
    expect(
      (await asRole(svc, 'admin', 'GET', `/mgmt/v1/webhook-endpoints/${endpoint.id}`, { org: svc.otherOrg })).status,
    ).toBe(403);
  });

  it('rotate-secret: both secrets sign during the overlap, only the new one after it', async () => {
    const endpoint = await subscribe();
    const rotated = await asRole(svc, 'admin', 'POST', `/mgmt/v1/webhook-endpoints/${endpoint.id}/rotate-secret`, {
      json: { expire_previous_after_seconds: 3600 },
    });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(endpoint.secret);
    await asRole(svc, 'admin', 'POST', `/mgmt/v1/webhook-endpoints/${endpoint.id}/test`);
    const during = receiver.requests.at(-1)!;
    expect(
      (during.headers['svc-signature'] as string).split(',').filter((part) => part.startsWith('v1=')),
    ).toHaveLength(2);
    for (const secret of [endpoint.secret, rotated.body.secret]) {
      expect(
        stripe.webhooks.constructEvent(during.body, during.headers['svc-signature'] as string, secret, 300),
      ).toBeTruthy();
      expect(new Webhook(secret).verify(during.body, during.headers as Record<string, string>)).toBeTruthy();
    }
    svc.clock.advance(3601_000);
    await asRole(svc, 'admin', 'POST', `/mgmt/v1/webhook-endpoints/${endpoint.id}/test`);
    const after = receiver.requests.at(-1)!;
    const t = Number(after.headers['webhook-timestamp']);
    expect(() =>
      stripe.webhooks.constructEvent(
        after.body,
        after.headers['svc-signature'] as string,
        endpoint.secret,
        300,
        undefined,
        t,
      ),
    ).toThrow();
    const expected = createHmac('sha256', rotated.body.secret).update(`${t}.${after.body}`).digest('hex');
    expect(after.headers['svc-signature']).toBe(`t=${t},v1=${expected}`);
  });
});
