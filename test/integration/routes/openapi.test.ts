import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { ENDPOINT_SLUGS } from '../../../lambdas/domain/catalogue/catalogue.js';
import { isCatchAll } from '../../../lambdas/http/routes/define.js';
import { DOCUMENTED_ROUTES, ROUTES } from '../../../lambdas/http/routes/index.js';
import { call, formWith, imageFile } from '../../support/http.js';
import { resolvedResponse } from '../../support/openapi.js';
import { sharedTestService } from '../../support/service.js';

const svc = sharedTestService();

describe('GET /v1/openapi.json', () => {
  it('serves an OpenAPI 3.1 document, without authentication, that a maintained validator accepts', async () => {
    const response = await call(svc.baseUrl, 'GET', '/v1/openapi.json');
    expect(response.status).toBe(200);
    expect(response.body.openapi).toBe('3.1.0');
    const validator = new Validator();
    const result = await validator.validate(response.body);
    expect(result.valid, JSON.stringify(result.errors, null, 1)?.slice(0, 2000)).toBe(true);
  });

  it("documents every route of the route table but the local runtime's own pages and the catch-all, every inference slug and the error envelope", async () => {
    const { body } = await call(svc.baseUrl, 'GET', '/v1/openapi.json');
    for (const route of ROUTES)
      expect(body.paths[route.path]?.[route.method.toLowerCase()] !== undefined, `${route.method} ${route.path}`).toBe(
        !route.localOnly && !isCatchAll(route),
      );
    expect(Object.keys(body.paths)).not.toContain('/{proxy+}');
    for (const slug of ENDPOINT_SLUGS) expect(body.paths[`/v1/${slug}`].post.responses['202']).toBeDefined();
    expect(body.components.schemas.ErrorEnvelope.properties.error.required.sort()).toEqual([
      'code',
      'doc_url',
      'message',
      'param',
      'request_id',
      'type',
    ]);
    expect(body.paths['/v1/plate.read'].post.requestBody.content['multipart/form-data']).toBeDefined();
    expect(body.paths['/v1/video.onboard'].post.requestBody.content['multipart/form-data']).toBeUndefined();
    // an error answer is a shared response, described by the codes this operation answers with
    const refusal = body.paths['/v1/plate.read'].post.responses['400'];
    expect(refusal.description ?? resolvedResponse(body, refusal).description).toMatch(
      /^error codes: .*parameter_invalid/,
    );
    expect(resolvedResponse(body, refusal).content['application/json']?.schema.$ref).toBe(
      '#/components/schemas/ErrorEnvelope',
    );
  });

  it('requires the input of a JSON inference body: input_ref, or one of input_refs and input_ref on multi-asset endpoints (as the service does)', async () => {
    const { body } = await call(svc.baseUrl, 'GET', '/v1/openapi.json');
    const jsonSchema = (slug: string) => body.paths[`/v1/${slug}`].post.requestBody.content['application/json'].schema;
    expect(jsonSchema('plate.read').required).toContain('input_ref');
    const render = jsonSchema('render.background');
    expect(Object.keys(render.properties)).toEqual(expect.arrayContaining(['input_refs', 'input_ref']));
    expect(render.oneOf).toEqual([{ required: ['input_refs'] }, { required: ['input_ref'] }]);
    // what the schema refuses, the service refuses too
    const empty = await call(svc.baseUrl, 'POST', '/v1/render.background', { key: svc.org.testKey, json: {} });
    expect(empty.status).toBe(400);
    expect(empty.body.error.code).toBe('missing_input');
  });

  it('declares the rate-limit headers on every API-key answer after authentication, Retry-After on 429, Idempotent-Replayed where a key is replayed', async () => {
    const { body } = await call(svc.baseUrl, 'GET', '/v1/openapi.json');
    const RATE = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];
    for (const route of DOCUMENTED_ROUTES) {
      const responses = body.paths[route.path][route.method.toLowerCase()].responses as Record<string, unknown>;
      for (const [status, response] of Object.entries(responses)) {
        const names = Object.keys(resolvedResponse(body, response).headers);
        const where = `${route.method} ${route.path} ${status}`;
        expect(names, where).toContain('Request-Id');
        const afterAuthentication = route.auth === 'api_key' && status !== '401' && Number(status) < 500;
        for (const name of RATE) expect(names.includes(name), `${where} ${name}`).toBe(afterAuthentication);
        if (status === '429') expect(names, where).toContain('Retry-After');
        // a quote writes nothing, so nothing is replayed (docs/internals/quotes.md)
        if (route.method === 'POST' && (route.auth === 'api_key' || route.auth === 'jwt') && status.startsWith('2'))
          expect(names.includes('Idempotent-Replayed'), where).toBe(route.quoteOf === undefined);
        if (route.method === 'GET') expect(names, where).not.toContain('Idempotent-Replayed');
      }
    }
    for (const name of ['RateLimitLimit', 'RateLimitRemaining', 'RateLimitReset', 'RetryAfter', 'IdempotentReplayed'])
      expect(body.components.headers[name], name).toBeDefined();
  });

  it('the declared headers are the ones the service sends', async () => {
    const key = svc.org.testKey;
    const rate = (response: { headers: Headers }) =>
      ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'].map((name) => response.headers.get(name));
    const list = await call(svc.baseUrl, 'GET', '/v1/jobs', { key });
    expect(rate(list).every((value) => value !== null && /^\d+$/.test(value))).toBe(true);
    const missing = await call(svc.baseUrl, 'GET', '/v1/jobs/job_11111111', { key });
    expect(missing.status).toBe(404);
    expect(rate(missing).every((value) => value !== null)).toBe(true);
    const unauthenticated = await call(svc.baseUrl, 'GET', '/v1/jobs', { key: 'chk_test_nope' });
    expect(unauthenticated.status).toBe(401);
    expect(rate(unauthenticated)).toEqual([null, null, null]);
    const headers = { 'Idempotency-Key': `openapi-headers-${Date.now()}` };
    const first = await call(svc.baseUrl, 'POST', '/v1/plate.read', {
      key,
      form: formWith('image', [imageFile('openapi-headers')]),
      headers,
    });
    expect(first.status).toBe(202);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const replay = await call(svc.baseUrl, 'POST', '/v1/plate.read', {
      key,
      form: formWith('image', [imageFile('openapi-headers')]),
      headers,
    });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(rate(replay).every((value) => value !== null)).toBe(true);
  });
});
