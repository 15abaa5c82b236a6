import { ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { describe, expect, it } from 'vitest';
import { CATALOGUE, ENDPOINT_SLUGS } from '../../../../lambdas/domain/catalogue/catalogue.js';
import { laneOf } from '../../../../lambdas/domain/jobs/work-lanes.js';
import { call, formWith, imageFile } from '../../../support/http.js';
import { sharedTestService, startTestService } from '../../../support/service.js';

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

  it('sends an admitted fast job to the fast queue and a slow-steered one to the standard queue', async () => {
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
    await svc.services.background.drain();
    const { workQueueUrl, fastWorkQueueUrl } = svc.services.infrastructure;
    expect(await jobIdsOn(fastWorkQueueUrl!)).toEqual([fast.body.id]);
    // the slow one is sent with its delay: it appears on the standard queue once due
    await expect.poll(() => jobIdsOn(workQueueUrl), { timeout: 10_000, interval: 200 }).toEqual([slow.body.id]);
  });

  it('with the table stream doing the enqueue (AWS), admission sends no message, and the sweeper still re-drives a job the stream lost', async () => {
    const aws = await startTestService({ workerPaused: true, config: { enqueueAdmittedJobs: 'table-stream' } });
    try {
      const created = await call(aws.baseUrl, 'POST', '/v1/pricing.vehicle', {
        key: aws.org.testKey,
        json: { make: 'Volkswagen', model: 'Golf', year: 2019 },
      });
      expect(created.status).toBe(202);
      await aws.services.background.drain();
      const { workQueueUrl, fastWorkQueueUrl } = aws.services.infrastructure;
      const sqs = await aws.services.clients.sqs();
      for (const queueUrl of [workQueueUrl, fastWorkQueueUrl!])
        expect(
          (await sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10 }))).Messages ?? [],
        ).toEqual([]);
      aws.worker.resume();
      aws.clock.advance(61_000);
      expect((await aws.sweeper.sweep())?.redriven).toBe(1);
      await expect
        .poll(async () => (await aws.services.jobs.get(created.body.id))?.status, { timeout: 10_000 })
        .toBe('succeeded');
    } finally {
      await aws.stop();
    }
  });
});
