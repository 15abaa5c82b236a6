import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ArmedFault } from '../../../../lambdas/domain/kernel/faults.js';
import { type ApiResponse, call, eventually, expectEnvelope, formWith, imageFile } from '../../../support/http.js';
import { ledgerSum } from '../../../support/ledger.js';
import { sharedTestService } from '../../../support/service.js';

const faults = new ArmedFault();
const svc = sharedTestService({ faults });

const orgId = () => svc.org.organization.id;
const plate = (key: string, idempotencyKey: string, seed = 'car', query = ''): Promise<ApiResponse> =>
  call(svc.baseUrl, 'POST', `/v1/plate.read${query}`, {
    key,
    form: formWith('image', [imageFile(seed)]),
    headers: { 'Idempotency-Key': idempotencyKey },
  });
const jobCount = async (livemode = false) =>
  (await svc.services.jobs.list({ orgId: orgId(), livemode, limit: 100 })).items.length;

describe('Idempotency-Key', () => {
  it('must be 8 to 255 characters', async () => {
    expectEnvelope(
      await plate(svc.org.testKey, 'short12'),
      400,
      'invalid_request',
      'parameter_invalid',
      'Idempotency-Key',
    );
    expectEnvelope(
      await plate(svc.org.testKey, 'x'.repeat(256)),
      400,
      'invalid_request',
      'parameter_invalid',
      'Idempotency-Key',
    );
    expect((await plate(svc.org.testKey, `k${randomUUID()}`.slice(0, 8))).status).toBe(202);
    expect((await plate(svc.org.testKey, 'y'.repeat(255))).status).toBe(202);
  });

  it('replays the stored response with Idempotent-Replayed and bills and enqueues nothing', async () => {
    const key = randomUUID();
    const first = await plate(svc.org.testKey, key);
    expect(first.status).toBe(202);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const jobs = await jobCount();
    const balance = await svc.services.accounts.getBalance(orgId(), false);
    // a new multipart boundary each time: the fingerprint ignores it
    const replay = await plate(svc.org.testKey, key);
    expect(replay.status).toBe(202);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.id).toBe(first.body.id);
    expect(replay.body).toEqual(first.body);
    // the stored response itself: the same bytes, keys in the same order, nested ones included
    expect(JSON.stringify(replay.body)).toBe(JSON.stringify(first.body));
    expect(await jobCount()).toBe(jobs);
    expect(await svc.services.accounts.getBalance(orgId(), false)).toBe(balance);
  });

  it('the same key with another body, path or scenario is 409 idempotency_key_reuse and changes nothing', async () => {
    const key = randomUUID();
    expect((await plate(svc.org.testKey, key, 'car')).status).toBe(202);
    const jobs = await jobCount();
    expectEnvelope(
      await plate(svc.org.testKey, key, 'other-car'),
      409,
      'conflict',
      'idempotency_key_reuse',
      'Idempotency-Key',
    );
    expectEnvelope(
      await call(svc.baseUrl, 'POST', '/v1/vin.read', {
        key: svc.org.testKey,
        form: formWith('image', [imageFile('car')]),
        headers: { 'Idempotency-Key': key },
      }),
      409,
      'conflict',
      'idempotency_key_reuse',
      'Idempotency-Key',
    );
    expectEnvelope(
      await call(svc.baseUrl, 'POST', '/v1/plate.read', {
        key: svc.org.testKey,
        form: formWith('image', [imageFile('car')]),
        headers: { 'Idempotency-Key': key, 'X-Svc-Test-Scenario': 'model_error' },
      }),
      409,
      'conflict',
      'idempotency_key_reuse',
      'Idempotency-Key',
    );
    expect(await jobCount()).toBe(jobs);
  });

  it('JSON bodies match by content, not by key order or whitespace', async () => {
    const key = randomUUID();
    const first = await call(svc.baseUrl, 'POST', '/v1/pricing.vehicle', {
      key: svc.org.testKey,
      rawBody: '{"vin":"1HGCM82633A004352","mileage_km":1000}',
      headers: { 'Content-Type': 'application/json', 'Idempotency-Key': key },
    });
    const again = await call(svc.baseUrl, 'POST', '/v1/pricing.vehicle', {
      key: svc.org.testKey,
      rawBody: '{ "mileage_km": 1000,  "vin": "1HGCM82633A004352" }',
      headers: { 'Content-Type': 'application/json', 'Idempotency-Key': key },
    });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.id).toBe(first.body.id);
  });

  it('is scoped to the organisation and the mode', async () => {
    const key = randomUUID();
    const test = await plate(svc.org.testKey, key);
    const live = await plate(svc.org.liveKey, key);
    const other = await plate(svc.otherOrg.testKey, key);
    expect(new Set([test.body.id, live.body.id, other.body.id]).size).toBe(3);
    for (const r of [test, live, other]) expect(r.headers.get('idempotent-replayed')).toBeNull();
  });

  it('counts the test-scenario header for test keys only (live keys ignore it)', async () => {
    const scenarioPlate = (key: string, idempotencyKey: string, scenario?: string) =>
      call(svc.baseUrl, 'POST', '/v1/plate.read', {
        key,
        form: formWith('image', [imageFile('car')]),
        headers: { 'Idempotency-Key': idempotencyKey, ...(scenario ? { 'X-Svc-Test-Scenario': scenario } : {}) },
      });
    const liveKey = randomUUID();
    const live = await scenarioPlate(svc.org.liveKey, liveKey);
    const liveAgain = await scenarioPlate(svc.org.liveKey, liveKey, 'model_error');
    expect(liveAgain.headers.get('idempotent-replayed')).toBe('true');
    expect(liveAgain.body.id).toBe(live.body.id);
    const testKey = randomUUID();
    expect((await scenarioPlate(svc.org.testKey, testKey)).status).toBe(202);
    expectEnvelope(
      await scenarioPlate(svc.org.testKey, testKey, 'model_error'),
      409,
      'conflict',
      'idempotency_key_reuse',
      'Idempotency-Key',
    );
  });

  it('stores a 4xx answer and replays it, its request_id naming the replay as Request-Id does', async () => {
    const key = randomUUID();
    const first = await call(svc.baseUrl, 'POST', '/v1/plate.read', {
      key: svc.org.testKey,
      json: {},
      headers: { 'Idempotency-Key': key },
    });
    expectEnvelope(first, 400, 'invalid_request', 'missing_input', 'input_ref');
    const replay = await call(svc.baseUrl, 'POST', '/v1/plate.read', {
      key: svc.org.testKey,
      json: {},
      headers: { 'Idempotency-Key': key },
    });
    expect(replay.status).toBe(400);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expectEnvelope(replay, 400, 'invalid_request', 'missing_input', 'input_ref');
    expect(replay.body.error.request_id).not.toBe(first.body.error.request_id);
    expect({ ...replay.body.error, request_id: null }).toEqual({ ...first.body.error, request_id: null });
  });

  it('does not store a 500: the retry with the same key executes', async () => {
    const key = randomUUID();
    const balance = await svc.services.accounts.getBalance(orgId(), false);
    const jobs = await jobCount();
    faults.arm('admission.before_commit');
    expectEnvelope(await plate(svc.org.testKey, key), 500, 'internal', 'internal_error');
    expect(await jobCount()).toBe(jobs);
    expect(await svc.services.accounts.getBalance(orgId(), false)).toBe(balance);
    const retry = await plate(svc.org.testKey, key);
    expect(retry.status).toBe(202);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect(await jobCount()).toBe(jobs + 1);
  });

  it('a crash after the admission transaction still leaves one job: the retry replays it', async () => {
    const key = randomUUID();
    const jobs = await jobCount();
    faults.arm('admission.after_commit');
    expect((await plate(svc.org.testKey, key)).status).toBe(500);
    expect(await jobCount()).toBe(jobs + 1);
    const retry = await plate(svc.org.testKey, key);
    expect(retry.status).toBe(202);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await jobCount()).toBe(jobs + 1);
    // its work message was never sent: the sweeper re-drives it
    svc.clock.advance(61_000);
    await svc.sweeper.sweep();
    await eventually(async () => (await svc.services.jobs.get(retry.body.id))?.status === 'succeeded');
  });

  it('wait=true: a replay returns the settled response', async () => {
    const key = randomUUID();
    const first = await plate(svc.org.testKey, key, 'car', '?wait=true');
    expect(first.status).toBe(200);
    const replay = await plate(svc.org.testKey, key, 'car', '?wait=true');
    expect(replay.status).toBe(200);
    expect(replay.body.status).toBe('succeeded');
    expect(replay.body.id).toBe(first.body.id);
  });

  it('wait=true: a duplicate sent while the first still waits is told the key is in use, then replays the settled answer', async () => {
    const key = randomUUID();
    const slowPlate = () =>
      call(svc.baseUrl, 'POST', '/v1/plate.read?wait=true', {
        key: svc.org.testKey,
        form: formWith('image', [imageFile('car')]),
        headers: { 'Idempotency-Key': key, 'X-Svc-Test-Scenario': 'slow' },
      });
    const first = slowPlate();
    // the first call's job exists (its 202 is stored with it) while it still waits for the settlement
    await eventually(async () =>
      (await svc.services.jobs.list({ orgId: orgId(), livemode: false, limit: 5 })).items.some(
        (job) => job.test_scenario === 'slow' && job.status === 'queued',
      )
        ? true
        : null,
    );
    const duplicate = await slowPlate();
    expectEnvelope(duplicate, 409, 'conflict', 'idempotency_key_in_use', 'Idempotency-Key');
    expect(Number(duplicate.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const answered = await first;
    expect(answered.status).toBe(200);
    const replay = await slowPlate();
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual({ ...answered.body, request_id: replay.body.request_id });
  });

  it('multipart: text fields in another order and `images[]` for `images` are the same request; another filename is not', async () => {
    const key = randomUUID();
    const render = (build: (form: FormData) => void) => {
      const form = new FormData();
      build(form);
      return call(svc.baseUrl, 'POST', '/v1/render.background', {
        key: svc.org.testKey,
        form,
        headers: { 'Idempotency-Key': key },
      });
    };
    const first = await render((form) => {
      form.append('images', imageFile('a'), 'a.jpg');
      form.append('images', imageFile('b'), 'b.jpg');
      form.append('output_format', 'png');
      form.append('traceability', 't1');
    });
    expect(first.status).toBe(202);
    const reordered = await render((form) => {
      form.append('traceability', 't1');
      form.append('images[]', imageFile('a'), 'a.jpg');
      form.append('output_format', 'png');
      form.append('images[]', imageFile('b'), 'b.jpg');
    });
    expect(reordered.status).toBe(202);
    expect(reordered.headers.get('idempotent-replayed')).toBe('true');
    expect(reordered.body.id).toBe(first.body.id);
    // the files' order is the results' order, and a filename is part of its result
    for (const build of [
      (form: FormData) => {
        form.append('images', imageFile('b'), 'b.jpg');
        form.append('images', imageFile('a'), 'a.jpg');
      },
      (form: FormData) => {
        form.append('images', imageFile('a'), 'renamed.jpg');
        form.append('images', imageFile('b'), 'b.jpg');
      },
    ]) {
      const changed = await render((form) => {
        build(form);
        form.append('output_format', 'png');
        form.append('traceability', 't1');
      });
      expectEnvelope(changed, 409, 'conflict', 'idempotency_key_reuse', 'Idempotency-Key');
    }
  });

  it('50 concurrent calls with one key create exactly one job and one reservation, and every answer names it', async () => {
    const key = randomUUID();
    const jobs = await jobCount();
    const balance = await svc.services.accounts.getBalance(orgId(), false);
    const answers = await Promise.all(Array.from({ length: 50 }, () => plate(svc.org.testKey, key)));
    for (const answer of answers) {
      if (answer.status === 409) {
        expectEnvelope(answer, 409, 'conflict', 'idempotency_key_in_use', 'Idempotency-Key');
        expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      } else expect(answer.status).toBe(202);
    }
    const ids = new Set<string>(answers.filter((a) => a.status === 202).map((a) => a.body.id));
    // the ones told to retry get the same job when they do
    for (let retries = answers.filter((a) => a.status === 409).length; retries > 0; retries -= 1) {
      const retried = await eventually(async () => {
        const r = await plate(svc.org.testKey, key);
        return r.status === 202 ? r : null;
      });
      ids.add(retried.body.id);
    }
    expect(ids.size).toBe(1);
    expect(await jobCount()).toBe(jobs + 1);
    const [jobId] = [...ids];
    const reservations = (
      await svc.services.accounts.listLedger({ orgId: orgId(), livemode: false, limit: 100 })
    ).items.filter((e) => e.job_id === jobId && e.kind === 'reserve');
    expect(reservations).toHaveLength(1);
    expect(await svc.services.accounts.getBalance(orgId(), false)).toBeLessThanOrEqual(balance - 2 + 2);
    expect(await ledgerSum(svc.services, orgId(), false)).toBe(await svc.services.accounts.getBalance(orgId(), false));
  });

  it('a key is kept for 24 hours, then it may be used afresh', async () => {
    const key = randomUUID();
    const first = await plate(svc.org.testKey, key);
    svc.clock.advance(23 * 3600 * 1000);
    expect((await plate(svc.org.testKey, key)).body.id).toBe(first.body.id);
    svc.clock.advance(3600 * 1000 + 1000);
    const later = await plate(svc.org.testKey, key);
    expect(later.status).toBe(202);
    expect(later.headers.get('idempotent-replayed')).toBeNull();
    expect(later.body.id).not.toBe(first.body.id);
  });

  it('works on other POST routes too (uploads, cancel)', async () => {
    const key = randomUUID();
    const body = { content_type: 'image/jpeg', size_bytes: 1234 };
    const first = await call(svc.baseUrl, 'POST', '/v1/uploads', {
      key: svc.org.testKey,
      json: body,
      headers: { 'Idempotency-Key': key },
    });
    const replay = await call(svc.baseUrl, 'POST', '/v1/uploads', {
      key: svc.org.testKey,
      json: body,
      headers: { 'Idempotency-Key': key },
    });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.upload_ref).toBe(first.body.upload_ref);
  });
});
