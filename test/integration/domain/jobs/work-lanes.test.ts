import { ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { describe, expect, it } from 'vitest';
import { CATALOGUE, ENDPOINT_SLUGS } from '../../../../lambdas/domain/catalogue/catalogue.js';
import { laneOf } from '../../../../lambdas/domain/jobs/work-lanes.js';
import { call, formWith, imageFile } from '../../../support/http.js';
import { sharedTestService } from '../../../support/service.js';

const svc = sharedTestService({ workerPaused: true });

/** Job ids waiting on a queue (the messages become visible again after a second). */
async function jobIdsOn(queueUrl: string): Promise<string[]> {
  const sqs = await svc.services.clients.sqs();
  const out = await sqs.send(
    new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, VisibilityTimeout: 1 }),
  );
  return (out.Messages ?? []).map((m) => (JSON.parse(m.Body!) as { job_id: string }).job_id);
}

describe('work lanes', () => {
  it('puts every endpoint that accepts wait=true on the fast lane, and everything else, or anything steered slow, on the standard one', () => {
    for (const slug of ENDPOINT_SLUGS) {
      expect(laneOf({ endpoint: slug, test_scenario: null }), slug).toBe(
        CATALOGUE[slug].acceptsWait ? 'fast' : 'standard',
      );
      expect(laneOf({ endpoint: slug, test_scenario: 'slow' }), slug).toBe('standard');
    }
  });

  it('the table stream sends an admitted fast job to the fast queue and a slow-steered one to the standard queue', async () => {
    const fast = await call(svc.baseUrl, 'POST', '/v1/pricing.vehicle', {
      key: svc.org.testKey,
      json: { make: 'Volkswagen', model: 'Golf', year: 2019 },
    });
    const slow = await call(svc.baseUrl, 'POST', '/v1/plate.read', {
      key: svc.org.testKey,
      form: formWith('image', [imageFile('slow')]),
      headers: { 'X-Svc-Test-Scenario': 'slow' },
    });
    expect([fast.status, slow.status]).toEqual([202, 202]);
    const { workQueueUrl, fastWorkQueueUrl } = svc.services.infrastructure;
    // a stream cannot delay a message: the slow one is on its queue at once, and the worker defers it until due
    await expect.poll(() => jobIdsOn(fastWorkQueueUrl!), { timeout: 5000, interval: 50 }).toEqual([fast.body.id]);
    await expect.poll(() => jobIdsOn(workQueueUrl), { timeout: 5000, interval: 50 }).toEqual([slow.body.id]);
  });
});
