import { beforeAll, describe, expect, it } from 'vitest';
import { PLAN_RATE_LIMITS } from '../../../../lambdas/domain/access/rate-limits.js';
import { call, expectEnvelope, formWith, imageFile } from '../../../support/http.js';
import { sharedTestService } from '../../../support/service.js';

const svc = sharedTestService({ plan: 'free', workerPaused: true });
beforeAll(async () => {
  // start at the beginning of a window so the test's calls share it
  const now = svc.clock.nowMs();
  svc.clock.advance(60_000 - (now % 60_000) + 100);
});

function expectRateLimitHeaders(headers: Headers, limit: number): void {
  expect(Number(headers.get('ratelimit-limit'))).toBe(limit);
  expect(Number(headers.get('ratelimit-remaining'))).toBeGreaterThanOrEqual(0);
  const reset = Number(headers.get('ratelimit-reset'));
  expect(reset % 60).toBe(0);
  expect(reset).toBeGreaterThan(svc.clock.nowMs() / 1000);
}

describe('rate limits per organisation, endpoint and mode', () => {
  it('every /v1 answer carries the rate-limit headers, errors included', async () => {
    const limits = PLAN_RATE_LIMITS.free!;
    const ok = await call(svc.baseUrl, 'GET', '/v1/endpoints', { key: svc.org.testKey });
    expectRateLimitHeaders(ok.headers, limits.otherPerMinute);
    const bad = await call(svc.baseUrl, 'POST', '/v1/vin.read', { key: svc.org.testKey, json: {} });
    expect(bad.status).toBe(400);
    expectRateLimitHeaders(bad.headers, limits.inferencePerMinute);
    const missing = await call(svc.baseUrl, 'GET', '/v1/jobs/job_111111111111', { key: svc.org.testKey });
    expect(missing.status).toBe(404);
    expectRateLimitHeaders(missing.headers, limits.otherPerMinute);
  });

  it('a breach answers 429 with Retry-After and creates no job and no reservation; the next window is open again', async () => {
    const limit = PLAN_RATE_LIMITS.free!.inferencePerMinute;
    const orgId = svc.org.organization.id;
    let remaining = Infinity;
    for (let i = 0; i < limit; i += 1) {
      const response = await call(svc.baseUrl, 'POST', '/v1/plate.read', { key: svc.org.testKey, json: {} });
      if (response.status === 429) break;
      remaining = Number(response.headers.get('ratelimit-remaining'));
    }
    expect(remaining).toBe(0);
    const balance = await svc.services.accounts.getBalance(orgId, false);
    const jobs = (await svc.services.jobs.list({ orgId, livemode: false, limit: 100 })).items.length;
    const refused = await call(svc.baseUrl, 'POST', '/v1/plate.read', {
      key: svc.org.testKey,
      form: formWith('image', [imageFile()]),
    });
    expectEnvelope(refused, 429, 'rate_limit', 'rate_limit_exceeded');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    expect(await svc.services.accounts.getBalance(orgId, false)).toBe(balance);
    expect((await svc.services.jobs.list({ orgId, livemode: false, limit: 100 })).items.length).toBe(jobs);

    // another endpoint and the other mode have their own counters
    expect(
      (
        await call(svc.baseUrl, 'POST', '/v1/vin.read', {
          key: svc.org.testKey,
          form: formWith('image', [imageFile()]),
        })
      ).status,
    ).toBe(202);
    expect(
      (
        await call(svc.baseUrl, 'POST', '/v1/plate.read', {
          key: svc.org.liveKey,
          form: formWith('image', [imageFile()]),
        })
      ).status,
    ).toBe(202);

    svc.clock.advance(60_000);
    expect(
      (
        await call(svc.baseUrl, 'POST', '/v1/plate.read', {
          key: svc.org.testKey,
          form: formWith('image', [imageFile()]),
        })
      ).status,
    ).toBe(202);
  });

  it('polling one job faster than once a second is refused with Retry-After 1', async () => {
    const created = await call(svc.baseUrl, 'POST', '/v1/tire.read', {
      key: svc.org.testKey,
      form: formWith('image', [imageFile()]),
    });
    const first = await call(svc.baseUrl, 'GET', `/v1/jobs/${created.body.id}`, { key: svc.org.testKey });
    expect(first.status).toBe(200);
    const second = await call(svc.baseUrl, 'GET', `/v1/jobs/${created.body.id}`, { key: svc.org.testKey });
    if (second.status !== 200) {
      expectEnvelope(second, 429, 'rate_limit', 'rate_limit_exceeded', 'id');
      expect(second.headers.get('retry-after')).toBe('1');
    }
    svc.clock.advance(1000);
    expect((await call(svc.baseUrl, 'GET', `/v1/jobs/${created.body.id}`, { key: svc.org.testKey })).status).toBe(200);
  });
});
