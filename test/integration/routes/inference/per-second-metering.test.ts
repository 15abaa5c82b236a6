import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { InferencePlane } from '../../../../lambdas/domain/ports/jobs.js';
import { settled } from '../../../support/endpoint-calls.js';
import { call, eventually } from '../../../support/http.js';
import { postSignedCompletion } from '../../../support/live-job.js';
import { sharedTestService, type TestService } from '../../../support/service.js';
import { uploadFile } from '../../../support/uploads.js';

// Per-second endpoints meter the clip by its own header (docs/internals/jobs-and-credits.md, "Per-second
// metering"): the 6 s walk-around sample is quoted, reserved and charged 6 credits in both modes,
// whatever length the model reports.

const WALKAROUND = readFileSync(new URL('../../../../samples/walkaround.mp4', import.meta.url));

async function quotedThenCharged(svc: TestService, key: string) {
  const quoteRef = await uploadFile(svc.baseUrl, key, 'video/mp4', WALKAROUND, 'walkaround.mp4');
  const quote = await call(svc.baseUrl, 'POST', '/v1/video.onboard/quote', { key, json: { input_ref: quoteRef } });
  expect(quote.status, JSON.stringify(quote.body)).toBe(200);
  const ref = await uploadFile(svc.baseUrl, key, 'video/mp4', WALKAROUND, 'walkaround.mp4');
  const created = await call(svc.baseUrl, 'POST', '/v1/video.onboard', { key, json: { input_ref: ref } });
  expect(created.status, JSON.stringify(created.body)).toBe(202);
  const job = await settled(svc.baseUrl, key, created.body.id);
  return { quote: quote.body, created: created.body, job: job.body };
}

describe('the 6 s walk-around on video.onboard', () => {
  const svc = sharedTestService({ livePlane: 'fixture' });

  for (const mode of ['test', 'live'] as const)
    it(`is quoted, reserved and charged 6 credits with a ${mode} key`, async () => {
      const key = mode === 'test' ? svc.org.testKey : svc.org.liveKey;
      const { quote, created, job } = await quotedThenCharged(svc, key);
      expect(quote).toMatchObject({ metering: 'per_second', units: 6, credits: { reserve: 6, estimate: 6 } });
      expect(created.credits).toEqual({ reserved: 6, charged: null });
      expect(job).toMatchObject({ status: 'succeeded', credits: { reserved: 6, charged: 6 } });
    });
});

describe('a plane that reports more seconds than the clip runs', () => {
  const accepted: string[] = [];
  const plane: InferencePlane = {
    submit: async (job) => {
      accepted.push(job.id);
      return true;
    },
  };
  const svc = sharedTestService({ livePlane: plane });

  it('is charged the measured seconds: 500 s reported, 6 charged', async () => {
    const ref = await uploadFile(svc.baseUrl, svc.org.liveKey, 'video/mp4', WALKAROUND, 'walkaround.mp4');
    const created = await call(svc.baseUrl, 'POST', '/v1/video.onboard', {
      key: svc.org.liveKey,
      json: { input_ref: ref },
    });
    expect(created.body.credits.reserved).toBe(6);
    await eventually(async () => accepted.includes(created.body.id));
    await eventually(async () => (await svc.services.jobs.get(created.body.id))?.status === 'processing');
    const body = JSON.stringify({
      job_id: created.body.id,
      status: 'succeeded',
      model_version: 'walkaround-onboarder-v1@2026-06-05',
      result: {
        duration_seconds: 500,
        vehicle: null,
        plate: null,
        frames: [],
        missing_viewpoints: [],
        needs_review: true,
      },
      billable_units: 500,
    });
    const callback = await postSignedCompletion(svc, body);
    expect(callback.status, JSON.stringify(callback.body)).toBe(200);
    const job = await svc.services.jobs.get(created.body.id);
    expect(job).toMatchObject({ status: 'succeeded', billable_units: 6, credits: { reserved: 6, charged: 6 } });
  });
});
