import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINT_SLUGS } from '../../lambdas/domain/catalogue/catalogue.js';
import { ROUTES } from '../../lambdas/http/routes/index.js';
import { call } from '../support/http.js';
import { startTestService, type TestService } from '../support/service.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => {
  await svc.stop();
});

describe('GET /v1/openapi.json', () => {
  it('serves an OpenAPI 3.1 document, without authentication, that a maintained validator accepts', async () => {
    const response = await call(svc.baseUrl, 'GET', '/v1/openapi.json');
    expect(response.status).toBe(200);
    expect(response.body.openapi).toBe('3.1.0');
    const validator = new Validator();
    const result = await validator.validate(response.body);
    expect(result.valid, JSON.stringify(result.errors, null, 1)?.slice(0, 2000)).toBe(true);
  });

  it('documents every route of the route table, every inference slug and the error envelope', async () => {
    const { body } = await call(svc.baseUrl, 'GET', '/v1/openapi.json');
    for (const route of ROUTES) expect(body.paths[route.path]?.[route.method.toLowerCase()], `${route.method} ${route.path}`).toBeDefined();
    for (const slug of ENDPOINT_SLUGS) expect(body.paths[`/v1/${slug}`].post.responses['202']).toBeDefined();
    expect(body.components.schemas.ErrorEnvelope.properties.error.required.sort()).toEqual(['code', 'doc_url', 'message', 'param', 'request_id', 'type']);
    expect(body.paths['/v1/plate.read'].post.requestBody.content['multipart/form-data']).toBeDefined();
    expect(body.paths['/v1/video.onboard'].post.requestBody.content['multipart/form-data']).toBeUndefined();
    expect(body.paths['/v1/plate.read'].post.responses['400'].content['application/json'].schema.$ref).toBe('#/components/schemas/ErrorEnvelope');
  });
});
