import { DeleteCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganization } from '../../../../lambdas/domain/access/organizations.js';
import { createWebhookEndpoint } from '../../../../lambdas/domain/webhooks/endpoints.js';
import type { EventRecord } from '../../../../lambdas/domain/webhooks/records.js';
import { call, eventually, formWith, imageFile } from '../../../support/http.js';
import { Receiver } from '../../../support/receiver.js';
import { sharedTestService } from '../../../support/service.js';

let receiver: Receiver;
/** event ids handed to the delivery queue */
const dispatchMessages: string[] = [];

const svc = sharedTestService();
beforeAll(async () => {
  receiver = await new Receiver().start();
  const send = svc.services.webhookQueue.send.bind(svc.services.webhookQueue);
  svc.services.webhookQueue.send = async (message, delaySeconds) => {
    if ('event_id' in message) dispatchMessages.push(message.event_id);
    return send(message, delaySeconds);
  };
});
afterAll(async () => {
  await receiver.stop();
});

async function newOrganization(): Promise<{ orgId: string; testKey: string }> {
  const seeded = await createOrganization(svc.services, { name: `Audience ${Math.random()}`, plan: 'pro' });
  return { orgId: seeded.organization.id, testKey: seeded.testKey };
}

/** Admits a test plate.read and returns the event its settlement wrote. */
async function settledEvent(testKey: string): Promise<EventRecord> {
  const admitted = await call(svc.baseUrl, 'POST', '/v1/plate.read', {
    key: testKey,
    form: formWith('image', [imageFile(`audience-${Math.random()}`)]),
  });
  expect(admitted.status).toBe(202);
  const orgId = (await svc.services.jobs.get(admitted.body.id))!.org_id;
  const listed = await eventually(
    async () => (await svc.services.webhooks.listEvents({ orgId, jobId: admitted.body.id, limit: 10 })).items[0],
  );
  return (await svc.services.webhooks.getEvent(listed.id))!;
}

const subscribe = (orgId: string) =>
  createWebhookEndpoint(svc.services, orgId, { url: receiver.url, enabled_events: ['job.succeeded', 'job.failed'] });

describe('events of an organisation without webhook endpoints', () => {
  it('are written already dispatched: no dispatch message, nothing left for the sweeper, still listed', async () => {
    const { testKey } = await newOrganization();
    const event = await settledEvent(testKey);
    expect(event.dispatched).toBe(true);
    expect(event.event.type).toBe('job.succeeded');
    svc.clock.advance(120_000);
    await svc.sweeper.sweep();
    expect(dispatchMessages).not.toContain(event.event.id);
  });

  it('an endpoint created after this process found none still gets the next event', async () => {
    const { orgId, testKey } = await newOrganization();
    expect((await settledEvent(testKey)).dispatched).toBe(true);
    await subscribe(orgId);
    const event = await settledEvent(testKey);
    expect(dispatchMessages).toContain(event.event.id);
    await eventually(async () => receiver.deliveriesOf(event.event.id).length === 1);
  });

  it('once the last endpoint is deleted, events are written dispatched again', async () => {
    const { orgId, testKey } = await newOrganization();
    const endpoint = await subscribe(orgId);
    const heard = await settledEvent(testKey);
    await eventually(async () => receiver.deliveriesOf(heard.event.id).length === 1);
    expect(await svc.services.webhooks.deleteEndpoint(endpoint)).toBe(true);
    expect(await svc.services.webhooks.deleteEndpoint(endpoint)).toBe(false);
    // past the minute this process remembers that the organisation had endpoints
    svc.clock.advance(61_000);
    const unheard = await settledEvent(testKey);
    expect(unheard.dispatched).toBe(true);
    expect(dispatchMessages).not.toContain(unheard.event.id);
  });

  it('an organisation whose endpoints were never counted has every event dispatched, with or without endpoints', async () => {
    const { orgId, testKey } = await newOrganization();
    // as an organisation created before endpoints were counted
    await DynamoDBDocumentClient.from(svc.services.clients.dynamodb).send(
      new DeleteCommand({
        TableName: svc.services.infrastructure.tableName,
        Key: { pk: `ORG#${orgId}`, sk: 'WEBHOOKENDPOINTS' },
      }),
    );
    const endpoint = await subscribe(orgId);
    const heard = await settledEvent(testKey);
    await eventually(async () => receiver.deliveriesOf(heard.event.id).length === 1);
    expect(await svc.services.webhooks.deleteEndpoint(endpoint)).toBe(true);
    svc.clock.advance(61_000);
    const unheard = await settledEvent(testKey);
    expect(dispatchMessages).toContain(unheard.event.id);
    await eventually(async () => (await svc.services.webhooks.getEvent(unheard.event.id))?.dispatched === true);
  });
});
