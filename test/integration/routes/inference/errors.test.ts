import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApiKey } from '../../../../lambdas/domain/access/organizations.js';
import { InjectedFault } from '../../../../lambdas/domain/kernel/faults.js';
import { type ApiResponse, call, expectEnvelope, formWith, imageFile } from '../../../support/http.js';
import { type SideEffects, sideEffects } from '../../../support/invariants.js';
import { ledgerSum } from '../../../support/ledger.js';
import { sharedTestService, startTestService } from '../../../support/service.js';

let key: string;
let orgId: string;

const svc = sharedTestService({ workerPaused: true });
beforeAll(async () => {
  key = svc.org.testKey;
  orgId = svc.org.organization.id;
});

/** Every rejected call must leave no job, no credit movement and no ledger entry behind. */
let before: SideEffects;
const snapshot = () => sideEffects(svc.services, orgId);
beforeEach(async () => {
  before = await snapshot();
});
afterEach(async () => {
  expect(await snapshot()).toEqual(before);
});

const post = (path: string, options: Parameters<typeof call>[3] = {}): Promise<ApiResponse> =>
  call(svc.baseUrl, 'POST', path, { key, ...options });

describe('400 invalid_request', () => {
  it('missing_input names the multipart file field', async () => {
    expectEnvelope(
      await post('/v1/plate.read', { form: formWith('image', [], { country: 'DE' }) }),
      400,
      'invalid_request',
      'missing_input',
      'image',
    );
    expectEnvelope(
      await post('/v1/engine.detect', { form: formWith('audio', [], {}) }),
      400,
      'invalid_request',
      'missing_input',
      'audio',
    );
  });
  it('missing_input names input_ref / input_refs for JSON bodies', async () => {
    expectEnvelope(await post('/v1/plate.read', { json: {} }), 400, 'invalid_request', 'missing_input', 'input_ref');
    expectEnvelope(await post('/v1/video.onboard', { json: {} }), 400, 'invalid_request', 'missing_input', 'input_ref');
    expectEnvelope(await post('/v1/render.360', { json: {} }), 400, 'invalid_request', 'missing_input', 'input_refs');
    expectEnvelope(await post('/v1/plate.read'), 400, 'invalid_request', 'missing_input', 'input_ref');
  });
  it('wait_not_supported on video, 360 and bundle endpoints', async () => {
    for (const slug of ['video.onboard', 'render.360', 'render.video', 'viewer.hotspots', 'inspections']) {
      expectEnvelope(
        await post(`/v1/${slug}?wait=true`, { json: { input_refs: ['upl_x'] } }),
        400,
        'invalid_request',
        'wait_not_supported',
        'wait',
      );
    }
  });
  it('an inspection naming an upload that does not exist is refused with upload_not_found', async () => {
    expectEnvelope(
      await post('/v1/inspections', { json: { input_refs: ['upl_x'] } }),
      400,
      'invalid_request',
      'upload_not_found',
      'input_refs',
    );
  });
  it('wait must be a boolean, and other query parameters are unknown', async () => {
    expectEnvelope(
      await post('/v1/plate.read?wait=soon', { form: formWith('image', [imageFile()]) }),
      400,
      'invalid_request',
      'parameter_invalid',
      'wait',
    );
    expectEnvelope(
      await post('/v1/plate.read?fast=1', { form: formWith('image', [imageFile()]) }),
      400,
      'invalid_request',
      'parameter_unknown',
      'fast',
    );
  });
  it('a route without a query schema refuses any query parameter, naming it', async () => {
    const get = (path: string) => call(svc.baseUrl, 'GET', path, { key });
    expectEnvelope(await get('/v1/jobs/job_11111111?foo=1'), 400, 'invalid_request', 'parameter_unknown', 'foo');
    expectEnvelope(await get('/v1/endpoints?foo=1'), 400, 'invalid_request', 'parameter_unknown', 'foo');
    expectEnvelope(
      await post('/v1/jobs/job_11111111/cancel?foo=1'),
      400,
      'invalid_request',
      'parameter_unknown',
      'foo',
    );
    expectEnvelope(
      await post('/v1/uploads?foo=1', { json: { content_type: 'image/jpeg', size_bytes: 10 } }),
      400,
      'invalid_request',
      'parameter_unknown',
      'foo',
    );
    // inference routes still take wait (and only wait): the call goes on to the body
    expectEnvelope(
      await post('/v1/plate.read?wait=true', { json: {} }),
      400,
      'invalid_request',
      'missing_input',
      'input_ref',
    );
  });
  it('cancel takes no body: a JSON body with a field is parameter_unknown naming it; {} or nothing reaches the route', async () => {
    expectEnvelope(
      await post('/v1/jobs/job_11111111/cancel', { json: { reason: 'duplicate' } }),
      400,
      'invalid_request',
      'parameter_unknown',
      'reason',
    );
    expectEnvelope(
      await post('/v1/jobs/job_11111111/cancel', { rawBody: '{"reason":"x"}' }),
      400,
      'invalid_request',
      'parameter_unknown',
      'reason',
    );
    expectEnvelope(await post('/v1/jobs/job_11111111/cancel', { json: {} }), 404, 'not_found', 'job_not_found', 'id');
    expectEnvelope(await post('/v1/jobs/job_11111111/cancel'), 404, 'not_found', 'job_not_found', 'id');
  });
  it('test_scenario_not_supported for an unknown scenario and for one the endpoint cannot support', async () => {
    expectEnvelope(
      await post('/v1/plate.read', {
        form: formWith('image', [imageFile()]),
        headers: { 'X-Svc-Test-Scenario': 'meteor_strike' },
      }),
      400,
      'invalid_request',
      'test_scenario_not_supported',
      'X-Svc-Test-Scenario',
    );
    expectEnvelope(
      await post('/v1/render.enhance', {
        form: formWith('image', [imageFile()]),
        headers: { 'X-Svc-Test-Scenario': 'empty_result' },
      }),
      400,
      'invalid_request',
      'test_scenario_not_supported',
      'X-Svc-Test-Scenario',
    );
  });
  it('bad JSON', async () => {
    expectEnvelope(
      await post('/v1/pricing.vehicle', { rawBody: '{"vin": ', headers: { 'Content-Type': 'application/json' } }),
      400,
      'invalid_request',
      'invalid_json',
      null,
    );
    expectEnvelope(
      await post('/v1/pricing.vehicle', { rawBody: '[1,2]', headers: { 'Content-Type': 'application/json' } }),
      400,
      'invalid_request',
      'invalid_json',
      null,
    );
  });
  it('an unsupported content type', async () => {
    expectEnvelope(
      await post('/v1/plate.read', { rawBody: 'image=x', headers: { 'Content-Type': 'text/plain' } }),
      400,
      'invalid_request',
      'unsupported_media_type',
      'Content-Type',
    );
  });
  it('an oversized file (over 10 MB)', async () => {
    const big = new Blob([Buffer.alloc(10 * 1024 * 1024 + 1, 1)], { type: 'image/jpeg' });
    expectEnvelope(
      await post('/v1/plate.read', { form: formWith('image', [big]) }),
      400,
      'invalid_request',
      'file_too_large',
      'image',
    );
  });
  it('a file of 10 MB exactly is accepted', async () => {
    const edge = new Blob([Buffer.alloc(10 * 1024 * 1024, 1)], { type: 'image/jpeg' });
    const response = await post('/v1/plate.read', { form: formWith('image', [edge]) });
    expect(response.status).toBe(202);
    await post(`/v1/jobs/${response.body.id}/cancel`);
    before = await snapshot();
  });
  it('an unknown parameter, in multipart and in JSON', async () => {
    expectEnvelope(
      await post('/v1/plate.read', { form: formWith('image', [imageFile()], { colour: 'red' }) }),
      400,
      'invalid_request',
      'parameter_unknown',
      'colour',
    );
    expectEnvelope(
      await post('/v1/pricing.vehicle', { json: { vin: '1HGCM82633A004352', colour: 'red' } }),
      400,
      'invalid_request',
      'parameter_unknown',
      'colour',
    );
  });
  it('an unknown file field', async () => {
    expectEnvelope(
      await post('/v1/plate.read', { form: formWith('picture', [imageFile()]) }),
      400,
      'invalid_request',
      'parameter_unknown',
      'picture',
    );
  });
  it('an invalid parameter value names the param', async () => {
    expectEnvelope(
      await post('/v1/pricing.vehicle', { json: { vin: 'NOT-A-VIN' } }),
      400,
      'invalid_request',
      'parameter_invalid',
      'vin',
    );
  });
  it('a fractional or non-numeric value for an integer parameter says an integer was expected, in multipart and in JSON', async () => {
    const multipart = await post('/v1/plate.read', { form: formWith('image', [imageFile()], { max_plates: '2.5' }) });
    expectEnvelope(multipart, 400, 'invalid_request', 'parameter_invalid', 'max_plates');
    expect(multipart.body.error.message).toBe('Invalid value for max_plates: expected an integer, received "2.5".');
    const word = await post('/v1/plate.read', { form: formWith('image', [imageFile()], { max_plates: 'five' }) });
    expect(word.body.error.message).toBe('Invalid value for max_plates: expected an integer, received "five".');
    const json = await post('/v1/pricing.vehicle', { json: { vin: '1HGCM82633A004352', mileage_km: 84000.5 } });
    expectEnvelope(json, 400, 'invalid_request', 'parameter_invalid', 'mileage_km');
    expect(json.body.error.message).toBe('Invalid value for mileage_km: expected an integer, received 84000.5.');
  });
  it('too many files for a single-asset endpoint', async () => {
    expectEnvelope(
      await post('/v1/plate.read', { form: formWith('image', [imageFile('a'), imageFile('b')]) }),
      400,
      'invalid_request',
      'too_many_files',
      'image',
    );
  });
  it('a video endpoint refuses multipart: it takes JSON input_ref only', async () => {
    const video = new Blob([Buffer.alloc(1000, 2)], { type: 'video/mp4' });
    expectEnvelope(
      await post('/v1/video.onboard', { form: formWith('video', [video]) }),
      400,
      'invalid_request',
      'json_encoding_required',
      'video',
    );
  });
  it('a file of the wrong kind', async () => {
    const video = new Blob([Buffer.alloc(1000, 2)], { type: 'video/mp4' });
    expectEnvelope(
      await post('/v1/plate.read', { form: formWith('image', [video]) }),
      400,
      'invalid_request',
      'parameter_invalid',
      'image',
    );
  });
  it('a truncated multipart body', async () => {
    const boundary = 'XyZ123';
    const body = `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\nabc`;
    const response = await post('/v1/plate.read', {
      rawBody: body,
      headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` },
    });
    // cut off inside the file part: the param names that part
    expectEnvelope(response, 400, 'invalid_request', 'invalid_multipart', 'image');
  });
  it('an upload reference that does not exist', async () => {
    expectEnvelope(
      await post('/v1/plate.read', { json: { input_ref: 'upl_doesnotexist' } }),
      400,
      'invalid_request',
      'upload_not_found',
      'input_ref',
    );
  });
});

describe('401 authentication', () => {
  it('missing, malformed, unknown and JWT-shaped credentials', async () => {
    expectEnvelope(
      await call(svc.baseUrl, 'POST', '/v1/plate.read', { form: formWith('image', [imageFile()]) }),
      401,
      'authentication',
      'invalid_api_key',
    );
    expectEnvelope(
      await call(svc.baseUrl, 'POST', '/v1/plate.read', { key: 'hello', form: formWith('image', [imageFile()]) }),
      401,
      'authentication',
      'invalid_api_key',
    );
    expectEnvelope(
      await call(svc.baseUrl, 'POST', '/v1/plate.read', {
        key: `chk_test_${'1'.repeat(32)}`,
        form: formWith('image', [imageFile()]),
      }),
      401,
      'authentication',
      'invalid_api_key',
    );
    expectEnvelope(
      await call(svc.baseUrl, 'GET', '/v1/jobs', { key: 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln' }),
      401,
      'authentication',
      'invalid_api_key',
    );
    expectEnvelope(
      await call(svc.baseUrl, 'GET', '/v1/jobs', { headers: { Authorization: `Basic ${key}` } }),
      401,
      'authentication',
      'invalid_api_key',
    );
  });
  it('authentication is checked before anything else', async () => {
    expectEnvelope(
      await call(svc.baseUrl, 'POST', '/v1/video.onboard?wait=true', { json: {} }),
      401,
      'authentication',
      'invalid_api_key',
    );
  });
});

describe('402 insufficient_credits', () => {
  it('the insufficient_credits scenario queues nothing and charges nothing', async () => {
    expectEnvelope(
      await post('/v1/plate.read', {
        form: formWith('image', [imageFile()]),
        headers: { 'X-Svc-Test-Scenario': 'insufficient_credits' },
      }),
      402,
      'insufficient_credits',
      'insufficient_credits',
    );
  });
  it('a balance that cannot cover the reservation', async () => {
    const poor = await startTestService({ startingCredits: { live: 3, test: 3 } });
    try {
      const first = await call(poor.baseUrl, 'POST', '/v1/plate.read', {
        key: poor.org.testKey,
        form: formWith('image', [imageFile()]),
      });
      expect(first.status).toBe(202);
      const refused = await call(poor.baseUrl, 'POST', '/v1/vin.read', {
        key: poor.org.testKey,
        form: formWith('image', [imageFile()]),
      });
      expectEnvelope(refused, 402, 'insufficient_credits', 'insufficient_credits');
      const jobs = await poor.services.jobs.list({ orgId: poor.org.organization.id, livemode: false, limit: 10 });
      expect(jobs.items).toHaveLength(1);
      expect(await ledgerSum(poor.services, poor.org.organization.id, false)).toBe(
        await poor.services.accounts.getBalance(poor.org.organization.id, false),
      );
    } finally {
      await poor.stop();
    }
  });
});

describe('403 scope_not_granted', () => {
  it('a key scoped to family A cannot call family B', async () => {
    const scoped = await createApiKey(svc.services, orgId, { name: 'A only', livemode: false, scopes: ['A'] });
    expectEnvelope(
      await call(svc.baseUrl, 'POST', '/v1/damage.detect', {
        key: scoped.secret,
        form: formWith('image', [imageFile()]),
      }),
      403,
      'permission',
      'scope_not_granted',
    );
    const allowed = await call(svc.baseUrl, 'POST', '/v1/plate.read', {
      key: scoped.secret,
      form: formWith('image', [imageFile()]),
    });
    expect(allowed.status).toBe(202);
    await post(`/v1/jobs/${allowed.body.id}/cancel`);
    before = await snapshot();
  });
});

describe('404 and 405', () => {
  it('unknown routes answer 404 in the envelope with a Request-Id', async () => {
    const response = await call(svc.baseUrl, 'GET', '/v1/nope', { key });
    expectEnvelope(response, 404, 'not_found', 'route_not_found');
    expectEnvelope(await call(svc.baseUrl, 'POST', '/v1/plate.write', { key }), 404, 'not_found', 'route_not_found');
  });
  it('a known path with the wrong method', async () => {
    expectEnvelope(
      await call(svc.baseUrl, 'GET', '/v1/plate.read', { key }),
      405,
      'invalid_request',
      'method_not_allowed',
    );
  });
});

describe('500 internal_error', () => {
  it('an unexpected fault answers a generic 500 that leaks nothing', async () => {
    const original = svc.services.jobs.get;
    svc.services.jobs.get = async () => {
      throw new InjectedFault('secret table detail arn:aws:dynamodb');
    };
    try {
      const response = await call(svc.baseUrl, 'GET', '/v1/jobs/job_11111111111111', { key });
      expectEnvelope(response, 500, 'internal', 'internal_error', null);
      expect(JSON.stringify(response.body)).not.toContain('secret');
      expect(JSON.stringify(response.body)).not.toContain('arn:aws');
    } finally {
      svc.services.jobs.get = original;
    }
  });
});

describe('every response carries Request-Id', () => {
  it('on success and on errors', async () => {
    const ok = await call(svc.baseUrl, 'GET', '/v1/endpoints', { key });
    expect(ok.headers.get('request-id')).toMatch(/^req_/);
    const docs = await call(svc.baseUrl, 'GET', '/docs/errors/missing_input');
    expect(docs.status).toBe(200);
    expect(docs.headers.get('request-id')).toMatch(/^req_/);
  });
});
