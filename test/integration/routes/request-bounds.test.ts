import { describe, expect, it } from 'vitest';
import { INSPECTION_STAGE_NAMES } from '../../../lambdas/domain/catalogue/stage-names.js';
import { epochSeconds } from '../../../lambdas/domain/kernel/clock.js';
import { signatureHeader } from '../../../lambdas/domain/kernel/signatures.js';
import { type ApiResponse, call, expectEnvelope, formWith, imageFile } from '../../support/http.js';
import { asRole } from '../../support/management.js';
import { sharedTestService } from '../../support/service.js';

// The bounds the OpenAPI document states on what a client sends are the ones the service enforces:
// one past each bound is refused with 400 naming the field, and the document says so
// (test/unit/contracts/openapi-bounds.test.ts checks that every such string and array has one).

const svc = sharedTestService();

type Schema = Record<string, any>;
let document: { paths: Record<string, Record<string, Schema>>; components: { schemas: Record<string, Schema> } };

/** The request-body schema of an operation, `$ref`s resolved (its own and its properties') and the endpoint's shared parameters (`allOf`) merged in. */
async function bodySchema(method: string, path: string, type = 'application/json'): Promise<Schema> {
  document ??= (await call(svc.baseUrl, 'GET', '/v1/openapi.json')).body;
  const resolve = (schema: Schema): Schema =>
    schema.$ref ? document.components.schemas[schema.$ref.split('/').pop()]! : schema;
  const schema = resolve(document.paths[path]![method]!.requestBody.content[type].schema as Schema);
  const shared = ((schema.allOf ?? []) as Schema[]).map(resolve);
  const properties: Record<string, Schema> = Object.assign(
    {},
    ...shared.map((part) => part.properties),
    schema.properties,
  );
  // a property may itself be a shared component (an input reference, an upload's fields)
  return {
    ...schema,
    properties: Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, resolve(property)])),
  };
}

const post = (path: string, json: unknown): Promise<ApiResponse> =>
  call(svc.baseUrl, 'POST', path, { key: svc.org.testKey, json });

describe('what the document bounds, the service refuses past the bound', () => {
  it('input_ref / input_refs: the documented shape; a well-formed ref that names nothing is still upload_not_found', async () => {
    const shape = new RegExp((await bodySchema('post', '/v1/plate.read')).properties.input_ref.pattern);
    const tooLong = `upl_${'a'.repeat(65)}`;
    const unknown = `upl_${'a'.repeat(64)}`;
    expect([shape.test(tooLong), shape.test(unknown), shape.test('job_abc')]).toEqual([false, true, false]);
    expectEnvelope(
      await post('/v1/plate.read', { input_ref: tooLong }),
      400,
      'invalid_request',
      'parameter_invalid',
      'input_ref',
    );
    expectEnvelope(
      await post('/v1/plate.read', { input_ref: 'job_abc' }),
      400,
      'invalid_request',
      'parameter_invalid',
      'input_ref',
    );
    expectEnvelope(
      await post('/v1/render.background', { input_refs: ['upl_ok1', 'not a ref'] }),
      400,
      'invalid_request',
      'parameter_invalid',
      'input_refs',
    );
    expectEnvelope(
      await post('/v1/plate.read', { input_ref: unknown }),
      400,
      'invalid_request',
      'upload_not_found',
      'input_ref',
    );
  });

  it('render backgrounds and interior sets: the documented pattern, in both encodings', async () => {
    const schema = await bodySchema('post', '/v1/render.background');
    const background = new RegExp(schema.properties.background.pattern);
    const interior = new RegExp(schema.properties.interior_set.pattern);
    const long = `custom--${'a'.repeat(65)}`;
    expect([
      background.test(''),
      background.test('showroom'),
      background.test(`custom--${'a'.repeat(64)}`),
      background.test(long),
    ]).toEqual([true, true, true, false]);
    expect([interior.test('loft-white'), interior.test('coast'), interior.test(long)]).toEqual([true, false, false]);
    const form = formWith('images', [imageFile('bounds')], { background: long });
    expectEnvelope(
      await call(svc.baseUrl, 'POST', '/v1/render.background', { key: svc.org.testKey, form }),
      400,
      'invalid_request',
      'parameter_invalid',
      'background',
    );
    const interiorForm = formWith('images', [imageFile('bounds')], { interior_set: 'coast' });
    expectEnvelope(
      await call(svc.baseUrl, 'POST', '/v1/render.background', { key: svc.org.testKey, form: interiorForm }),
      400,
      'invalid_request',
      'parameter_invalid',
      'interior_set',
    );
  });

  it('a URL parameter: 2048 characters at most, refused past it as url_not_public', async () => {
    const logo = (await bodySchema('post', '/v1/render.plate')).properties.logo;
    expect(logo.maxLength).toBe(2048);
    const form = formWith('image', [imageFile('bounds')], {
      mode: 'logo',
      logo: `https://example.com/${'a'.repeat(2048)}`,
    });
    expectEnvelope(
      await call(svc.baseUrl, 'POST', '/v1/render.plate', { key: svc.org.testKey, form }),
      400,
      'invalid_request',
      'url_not_public',
      'logo',
    );
  });

  it('stages.exclude of an inspection: at most the eight stages', async () => {
    const exclude = (await bodySchema('post', '/v1/inspections')).properties.stages.properties.exclude;
    expect(exclude.maxItems).toBe(8);
    const nine = [...INSPECTION_STAGE_NAMES, 'detect_damage'];
    expectEnvelope(
      await post('/v1/inspections', { input_refs: ['upl_one', 'upl_two'], stages: { exclude: nine } }),
      400,
      'invalid_request',
      'parameter_invalid',
      'stages.exclude',
    );
  });

  it('an upload content_type: 255 characters at most', async () => {
    expect((await bodySchema('post', '/v1/uploads')).properties.content_type.maxLength).toBe(255);
    expectEnvelope(
      await post('/v1/uploads', { content_type: `image/${'a'.repeat(250)}`, size_bytes: 10 }),
      400,
      'invalid_request',
      'parameter_invalid',
      'content_type',
    );
  });

  it("management arrays and URLs: enabled_events, scopes, the checkout's return addresses", async () => {
    expect((await bodySchema('post', '/mgmt/v1/webhook-endpoints')).properties.enabled_events.maxItems).toBe(4);
    const events = ['job.succeeded', 'job.failed', 'inspection.stage_completed', 'batch.completed', 'job.failed'];
    expectEnvelope(
      await asRole(svc, 'admin', 'POST', '/mgmt/v1/webhook-endpoints', {
        json: { url: 'https://hooks.example.com/in', enabled_events: events },
      }),
      400,
      'invalid_request',
      'parameter_invalid',
      'enabled_events',
    );
    expect((await bodySchema('post', '/mgmt/v1/api-keys')).properties.scopes.maxItems).toBe(6);
    const scopes = ['A', 'B', 'C', 'D', 'E', 'inspections', 'A'];
    expectEnvelope(
      await asRole(svc, 'admin', 'POST', '/mgmt/v1/api-keys', { json: { name: 'bounded', livemode: false, scopes } }),
      400,
      'invalid_request',
      'parameter_invalid',
      'scopes',
    );
    expect((await bodySchema('post', '/mgmt/v1/billing/checkout')).properties.success_url.maxLength).toBe(2048);
    const longUrl = `https://example.com/${'a'.repeat(2048)}`;
    expectEnvelope(
      await asRole(svc, 'owner', 'POST', '/mgmt/v1/billing/checkout', {
        json: { price: 'credits_5000', success_url: longUrl },
      }),
      400,
      'invalid_request',
      'parameter_invalid',
      'success_url',
    );
  });

  it("the completion callback's result field names: 64 characters at most", async () => {
    const result = (await bodySchema('post', '/internal/v1/completions')).properties.result;
    expect(result.propertyNames.maxLength).toBe(64);
    const body = JSON.stringify({
      job_id: 'job_1111111111111111',
      status: 'succeeded',
      model_version: 'plate-reader-v6@2026-07-01',
      result: { ['a'.repeat(65)]: 1 },
    });
    const header = signatureHeader(body, svc.services.config.inferenceCallbackSecret!, epochSeconds(svc.clock));
    const answer = await call(svc.baseUrl, 'POST', '/internal/v1/completions', {
      rawBody: body,
      headers: { 'Content-Type': 'application/json', 'X-Inference-Signature': header },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: 'parameter_invalid' });
    expect(answer.body.error.param).toMatch(/^result/);
  });
});
