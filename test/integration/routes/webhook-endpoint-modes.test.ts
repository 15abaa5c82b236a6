import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookEndpointRecord } from '../../../lambdas/domain/webhooks/records.js';
import { call, eventually, expectEnvelope, formWith, imageFile } from '../../support/http.js';
import { asRole } from '../../support/management.js';
import { Receiver } from '../../support/receiver.js';
import { sharedTestService } from '../../support/service.js';

// An endpoint receives only its own mode's events (docs/internals/webhooks.md, "Endpoints").

const svc = sharedTestService({ livePlane: 'fixture' });
const receivers = { test: new Receiver(), live: new Receiver(), legacy: new Receiver() };
const endpoints = {} as Record<'test' | 'live', { id: string; livemode: boolean }>;
let legacyId: string;

beforeAll(async () => {
  await Promise.all(Object.values(receivers).map((receiver) => receiver.start()));
  const events = ['job.succeeded', 'job.failed'];
  // no livemode in the body: a test endpoint
  const test = await asRole(svc, 'admin', 'POST', '/mgmt/v1/webhook-endpoints', {
    json: { url: receivers.test.url, enabled_events: events },
  });
  const live = await asRole(svc, 'admin', 'POST', '/mgmt/v1/webhook-endpoints', {
    json: { url: receivers.live.url, enabled_events: events, livemode: true },
  });
  expect([test.status, live.status]).toEqual([201, 201]);
  endpoints.test = test.body;
  endpoints.live = live.body;
  // an endpoint stored before endpoints had a mode: no livemode attribute at all
  const created = await asRole(svc, 'admin', 'POST', '/mgmt/v1/webhook-endpoints', {
    json: { url: receivers.legacy.url, enabled_events: events },
  });
  legacyId = created.body.id;
  const stored = (await svc.services.webhooks.getEndpoint(legacyId))!;
  const { livemode: _mode, ...withoutMode } = stored;
  await svc.services.webhooks.deleteEndpoint(stored);
  expect(await svc.services.webhooks.putEndpoint(withoutMode as WebhookEndpointRecord)).toBe(true);
});

afterAll(async () => {
  await Promise.all(Object.values(receivers).map((receiver) => receiver.stop()));
});

async function settledJob(key: string, seed: string): Promise<string> {
  const answer = await call(svc.baseUrl, 'POST', '/v1/plate.read?wait=true', {
    key,
    form: formWith('image', [imageFile(seed)]),
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.id;
}

const received = (receiver: Receiver, jobId: string) =>
  receiver.events().filter((event) => event.data.job.id === jobId);

async function deliveryLog(endpointId: string): Promise<string[]> {
  const page = await asRole(svc, 'admin', 'GET', `/mgmt/v1/webhook-endpoints/${endpointId}/deliveries?limit=100`);
  expect(page.status).toBe(200);
  return page.body.data.map((delivery: { event_id: string }) => delivery.event_id);
}

async function eventOf(jobId: string): Promise<{ id: string }> {
  const events = await asRole(svc, 'admin', 'GET', `/mgmt/v1/events?job_id=${jobId}`);
  expect(events.body.data).toHaveLength(1);
  return events.body.data[0];
}

describe('webhook endpoints per mode', () => {
  it('records carry livemode: false by default, true when asked; an endpoint stored without one reads as test', async () => {
    expect(endpoints.test.livemode).toBe(false);
    expect(endpoints.live.livemode).toBe(true);
    const legacy = await asRole(svc, 'admin', 'GET', `/mgmt/v1/webhook-endpoints/${legacyId}`);
    expect(legacy.body.livemode).toBe(false);
    const list = await asRole(svc, 'admin', 'GET', '/mgmt/v1/webhook-endpoints');
    expect(
      Object.fromEntries(
        list.body.data.map((endpoint: { id: string; livemode: boolean }) => [endpoint.id, endpoint.livemode]),
      ),
    ).toEqual({
      [endpoints.test.id]: false,
      [endpoints.live.id]: true,
      [legacyId]: false,
    });
  });

  it('a test job is announced to the test endpoints only, a live job to the live endpoint only', async () => {
    const [testJob, liveJob] = await Promise.all([
      settledJob(svc.org.testKey, 'mode-test'),
      settledJob(svc.org.liveKey, 'mode-live'),
    ]);
    await eventually(
      async () =>
        received(receivers.test, testJob).length &&
        received(receivers.legacy, testJob).length &&
        received(receivers.live, liveJob).length,
      20_000,
    );
    // every delivery of an event is created before any is attempted: what is not in a log now never will be
    const [testEvent, liveEvent] = await Promise.all([eventOf(testJob), eventOf(liveJob)]);
    expect(await deliveryLog(endpoints.test.id)).toContain(testEvent.id);
    expect(await deliveryLog(endpoints.test.id)).not.toContain(liveEvent.id);
    expect(await deliveryLog(legacyId)).not.toContain(liveEvent.id);
    expect(await deliveryLog(endpoints.live.id)).toContain(liveEvent.id);
    expect(await deliveryLog(endpoints.live.id)).not.toContain(testEvent.id);
    expect(received(receivers.test, liveJob)).toEqual([]);
    expect(received(receivers.legacy, liveJob)).toEqual([]);
    expect(received(receivers.live, testJob)).toEqual([]);
    expect(received(receivers.live, liveJob)[0]!.data.job).toMatchObject({ livemode: true });
    expect(received(receivers.test, testJob)[0]!.data.job).toMatchObject({ livemode: false });
  });

  it("the test operation sends a job of the endpoint's own mode", async () => {
    for (const mode of ['test', 'live'] as const) {
      const sent = await asRole(svc, 'admin', 'POST', `/mgmt/v1/webhook-endpoints/${endpoints[mode].id}/test`, {
        json: {},
      });
      expect(sent.status).toBe(200);
      expect(sent.body).toMatchObject({ delivered: true, event: { data: { job: { livemode: mode === 'live' } } } });
      expect(receivers[mode].events().at(-1)!.id).toBe(sent.body.event.id);
    }
  });

  it('redelivery keeps to the mode: all endpoints of the event mode, and another mode named is refused', async () => {
    const testJob = await settledJob(svc.org.testKey, 'mode-redeliver');
    const event = await eventOf(testJob);
    const all = await asRole(svc, 'admin', 'POST', `/mgmt/v1/events/${event.id}/redeliver`, { json: {} });
    expect(all.status).toBe(202);
    expect(all.body.data.map((delivery: { endpoint_id: string }) => delivery.endpoint_id).sort()).toEqual(
      [endpoints.test.id, legacyId].sort(),
    );
    const before = (await deliveryLog(endpoints.live.id)).length;
    const refused = await asRole(svc, 'admin', 'POST', `/mgmt/v1/events/${event.id}/redeliver`, {
      json: { endpoint_id: endpoints.live.id },
    });
    expectEnvelope(refused, 400, 'invalid_request', 'parameter_invalid', 'endpoint_id');
    expect(await deliveryLog(endpoints.live.id)).toHaveLength(before);
  });
});
