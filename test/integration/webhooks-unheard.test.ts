import { ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, eventually, formWith, imageFile } from '../support/http.js';
import { asRole } from '../support/management.js';
import { startTestService, type TestService } from '../support/service.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => {
  await svc.stop();
});

describe('an event no endpoint listens to', () => {
  it('is kept and listed like any other, but sends no queue message and needs no dispatch', async () => {
    svc.webhookLoop.pause();
    try {
      const created = await call(svc.baseUrl, 'POST', '/v1/plate.read', { key: svc.org.testKey, form: formWith('image', [imageFile('unheard')]) });
      expect(created.status).toBe(202);
      await eventually(async () => (await svc.services.jobs.get(created.body.id))?.status === 'succeeded');
      const events = await asRole(svc, 'admin', 'GET', `/mgmt/v1/events?job_id=${created.body.id}`);
      expect(events.status).toBe(200);
      expect(events.body.data.map((event: { type: string }) => event.type)).toEqual(['job.succeeded']);
      expect(events.body.data[0].data.job).toMatchObject({ id: created.body.id, status: 'succeeded' });
      const stored = await svc.services.webhooks.getEvent(events.body.data[0].id);
      expect(stored?.dispatched).toBe(true);
      const sqs = await svc.services.clients.sqs();
      const waiting = await sqs.send(new ReceiveMessageCommand({ QueueUrl: svc.services.infrastructure.webhookQueueUrl, MaxNumberOfMessages: 10, VisibilityTimeout: 0 }));
      expect(waiting.Messages ?? []).toEqual([]);
    } finally {
      svc.webhookLoop.resume();
    }
  });
});
