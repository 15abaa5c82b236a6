import { describe, expect, it } from 'vitest';
import { AisError, createAisClient } from '../../../client/src/index.js';
import { PLAN_RATE_LIMITS } from '../../../lambdas/domain/access/rate-limits.js';
import { DOCUMENTED_ROUTES } from '../../../lambdas/http/routes/index.js';
import { type ApiResponse, call, expectEnvelope, formWith, imageFile } from '../../support/http.js';
import { resolvedResponse } from '../../support/openapi.js';
import { sharedTestService } from '../../support/service.js';

// The IETF draft's RateLimit-Policy and RateLimit beside the legacy fields (docs/internals/idempotency-and-rate-limits.md)

const svc = sharedTestService({ plan: 'free' });

const nowSeconds = () => Math.floor(svc.clock.nowMs() / 1000);

/** Calls, and checks the draft's fields state exactly the window the legacy fields state. */
async function expectSameWindow(send: () => Promise<ApiResponse>, windowSeconds = 60): Promise<ApiResponse> {
  const before = nowSeconds();
  const response = await send();
  const after = nowSeconds();
  const legacy = {
    limit: response.headers.get('ratelimit-limit'),
    remaining: response.headers.get('ratelimit-remaining'),
    reset: Number(response.headers.get('ratelimit-reset')),
  };
  expect(legacy.limit, JSON.stringify(response.body)).toMatch(/^\d+$/);
  expect(response.headers.get('ratelimit-policy')).toBe(`"default";q=${legacy.limit};w=${windowSeconds}`);
  const state = /^"default";r=(\d+);t=(\d+)$/.exec(response.headers.get('ratelimit') ?? '');
  expect(state, response.headers.get('ratelimit') ?? 'no RateLimit field').not.toBeNull();
  expect(state![1]).toBe(legacy.remaining);
  // t is RateLimit-Reset seen from the second the service answered in
  expect(Number(state![2])).toBeGreaterThanOrEqual(legacy.reset - after);
  expect(Number(state![2])).toBeLessThanOrEqual(legacy.reset - before);
  expect(Number(state![2])).toBeLessThanOrEqual(windowSeconds);
  return response;
}

/** Moves the service's clock to just after a second begins, so the next few calls fall in one second. */
function startOfSecond(): void {
  svc.clock.advance(1000 - (svc.clock.nowMs() % 1000) + 10);
}

function freshWindow(): void {
  svc.clock.advance(60_000 - (svc.clock.nowMs() % 60_000) + 100);
}

describe('RateLimit-Policy and RateLimit carry the legacy values', () => {
  it('on a read, an admission, an error answer and a validation failure', async () => {
    const key = svc.org.testKey;
    await expectSameWindow(() => call(svc.baseUrl, 'GET', '/v1/jobs', { key }));
    await expectSameWindow(() => call(svc.baseUrl, 'GET', '/v1/endpoints', { key }));
    const admitted = await expectSameWindow(() =>
      call(svc.baseUrl, 'POST', '/v1/plate.read', { key, form: formWith('image', [imageFile('ietf')]) }),
    );
    expect(admitted.status).toBe(202);
    const missing = await expectSameWindow(() => call(svc.baseUrl, 'GET', '/v1/jobs/job_11111111', { key }));
    expect(missing.status).toBe(404);
    const invalid = await expectSameWindow(() => call(svc.baseUrl, 'POST', '/v1/vin.read', { key, json: {} }));
    expect(invalid.status).toBe(400);
  });

  it("on the 429 of a spent window, where RateLimit's t equals Retry-After", async () => {
    freshWindow();
    const limit = PLAN_RATE_LIMITS.free!.inferencePerMinute;
    // calls that fail validation count against the window like any other
    for (let i = 0; i < limit; i += 1)
      expect((await call(svc.baseUrl, 'POST', '/v1/tire.read', { key: svc.org.testKey, json: {} })).status).toBe(400);
    const refused = await expectSameWindow(() =>
      call(svc.baseUrl, 'POST', '/v1/tire.read', { key: svc.org.testKey, json: {} }),
    );
    expectEnvelope(refused, 429, 'rate_limit', 'rate_limit_exceeded');
    expect(refused.headers.get('ratelimit')).toBe(`"default";r=0;t=${refused.headers.get('retry-after')}`);
  });

  it('on the 429 of polling one job twice in a second: a one-second window', async () => {
    const admitted = await call(svc.baseUrl, 'POST', '/v1/plate.read', {
      key: svc.org.testKey,
      form: formWith('image', [imageFile('ietf-poll')]),
    });
    const poll = () => call(svc.baseUrl, 'GET', `/v1/jobs/${admitted.body.id}`, { key: svc.org.testKey });
    startOfSecond();
    const first = await poll();
    expect(first.status).toBe(200);
    const refused = await poll();
    expectEnvelope(refused, 429, 'rate_limit', 'rate_limit_exceeded', 'id');
    expect(refused.headers.get('ratelimit-policy')).toBe('"default";q=1;w=1');
    expect(refused.headers.get('ratelimit')).toBe('"default";r=0;t=1');
    expect(refused.headers.get('ratelimit-limit')).toBe('1');
  });

  it('the typed client backs off for as long as the RateLimit field says', async () => {
    const admitted = await call(svc.baseUrl, 'POST', '/v1/plate.read', {
      key: svc.org.testKey,
      form: formWith('image', [imageFile('ietf-client')]),
    });
    const client = createAisClient({ baseUrl: svc.baseUrl, apiKey: svc.org.testKey });
    startOfSecond();
    const outcomes = await Promise.allSettled([
      client.getJob(admitted.body.id),
      client.getJob(admitted.body.id),
      client.getJob(admitted.body.id),
    ]);
    const refusals = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason] : []));
    expect(refusals.length).toBeGreaterThan(0);
    for (const refusal of refusals) {
      expect(refusal).toBeInstanceOf(AisError);
      expect((refusal as AisError).retryAfter).toBe(1);
    }
  });
});

describe('the OpenAPI document declares them', () => {
  it('wherever it declares RateLimit-Limit, with their shapes', async () => {
    const { body } = await call(svc.baseUrl, 'GET', '/v1/openapi.json');
    let declared = 0;
    for (const route of DOCUMENTED_ROUTES) {
      const responses = body.paths[route.path][route.method.toLowerCase()].responses as
        | Record<string, { headers: Record<string, unknown> }>
        | undefined;
      for (const [status, response] of Object.entries(responses ?? {})) {
        const names = Object.keys(resolvedResponse(body, response).headers ?? {});
        const where = `${route.method} ${route.path} ${status}`;
        expect(names.includes('RateLimit-Policy'), where).toBe(names.includes('RateLimit-Limit'));
        expect(names.includes('RateLimit'), where).toBe(names.includes('RateLimit-Limit'));
        if (names.includes('RateLimit')) declared += 1;
      }
    }
    expect(declared).toBeGreaterThan(50);
    const pattern = (name: string) => new RegExp(body.components.headers[name].schema.pattern);
    expect('"default";q=600;w=60').toMatch(pattern('RateLimitPolicy'));
    expect('"default";r=597;t=42').toMatch(pattern('RateLimit'));
  });
});
