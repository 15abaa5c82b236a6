import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call, eventually, expectEnvelope, formWith, imageFile } from '../support/http.js';

/** What the black-box suite needs to know about a running service. */
export interface E2eTarget {
  baseUrl: string;
  testKey: string;
}

/**
 * Black-box checks that use nothing but HTTP, so the same suite runs against `npm start`, a
 * LocalStack deployment (`cdklocal deploy`) or AWS: set AIS_BASE_URL and AIS_TEST_KEY.
 */
export function defineE2eSuite(target: () => E2eTarget): void {
  const poll = (id: string) =>
    eventually(
      async () => {
        const r = await call(target().baseUrl, 'GET', `/v1/jobs/${id}`, { key: target().testKey });
        return r.status === 200 && ['succeeded', 'failed', 'expired', 'canceled'].includes(r.body.status) ? r : null;
      },
      30_000,
      1_100,
    );

  describe('end to end over HTTP', () => {
    it('serves the catalogue and the OpenAPI document', async () => {
      const catalogue = await call(target().baseUrl, 'GET', '/v1/endpoints', { key: target().testKey });
      expect(catalogue.status).toBe(200);
      expect(catalogue.body.data.length).toBe(25);
      const openapi = await call(target().baseUrl, 'GET', '/v1/openapi.json');
      expect(openapi.body.openapi).toBe('3.1.0');
    });

    it('runs a multipart job asynchronously to a result', async () => {
      const created = await call(target().baseUrl, 'POST', '/v1/plate.read', {
        key: target().testKey,
        form: formWith('image', [imageFile(randomUUID())]),
      });
      expect(created.status).toBe(202);
      expect(created.headers.get('request-id')).toMatch(/^req_/);
      expect(created.headers.get('ratelimit-limit')).not.toBeNull();
      const job = await poll(created.body.id);
      expect(job.body.status).toBe('succeeded');
      expect(job.body.result).not.toBeNull();
    });

    it('holds a fast call with wait=true', async () => {
      const response = await call(target().baseUrl, 'POST', '/v1/tire.read?wait=true', {
        key: target().testKey,
        form: formWith('image', [imageFile(randomUUID())]),
      });
      expect(response.status).toBe(200);
      expect(response.body.status).toBe('succeeded');
    });

    it('uploads through a presigned URL and runs a video job from it', async () => {
      const bytes = Buffer.alloc(4096, 3);
      const upload = await call(target().baseUrl, 'POST', '/v1/uploads', {
        key: target().testKey,
        json: { content_type: 'video/mp4', size_bytes: bytes.length },
      });
      expect(upload.status).toBe(201);
      expect((await fetch(upload.body.url, { method: 'PUT', headers: upload.body.headers, body: bytes })).ok).toBe(
        true,
      );
      const created = await call(target().baseUrl, 'POST', '/v1/video.onboard', {
        key: target().testKey,
        json: { input_ref: upload.body.upload_ref },
      });
      expect(created.status).toBe(202);
      expect((await poll(created.body.id)).body.status).toBe('succeeded');
      expectEnvelope(
        await call(target().baseUrl, 'POST', '/v1/video.onboard', {
          key: target().testKey,
          json: { input_ref: upload.body.upload_ref },
        }),
        409,
        'conflict',
        'upload_already_consumed',
        'input_ref',
      );
    });

    it('fails a steered job and cancels a slow one', async () => {
      const failing = await call(target().baseUrl, 'POST', '/v1/vin.read', {
        key: target().testKey,
        form: formWith('image', [imageFile(randomUUID())]),
        headers: { 'X-Svc-Test-Scenario': 'model_error' },
      });
      expect((await poll(failing.body.id)).body).toMatchObject({
        status: 'failed',
        error: { code: 'model_inference_failed' },
        credits: { charged: 0 },
      });
      const slow = await call(target().baseUrl, 'POST', '/v1/vin.read', {
        key: target().testKey,
        form: formWith('image', [imageFile(randomUUID())]),
        headers: { 'X-Svc-Test-Scenario': 'slow' },
      });
      const canceled = await call(target().baseUrl, 'POST', `/v1/jobs/${slow.body.id}/cancel`, {
        key: target().testKey,
      });
      expect(canceled.status).toBe(200);
      expect(canceled.body.status).toBe('canceled');
    });

    it('redacts a settled job: its files go, its result is null from then on, a repeat deletes nothing more', async () => {
      const job = await call(target().baseUrl, 'POST', '/v1/render.background?wait=true', {
        key: target().testKey,
        form: formWith('images', [imageFile(randomUUID())]),
      });
      expect(job.body.status).toBe('succeeded');
      const redact = () => call(target().baseUrl, 'POST', `/v1/jobs/${job.body.id}/redact`, { key: target().testKey });
      const first = await redact();
      expect(first.status).toBe(200);
      expect(first.body).toEqual({
        object: 'redaction',
        job_id: job.body.id,
        redacted_at: expect.any(Number),
        files_deleted: expect.any(Number),
      });
      // the kept input and the rendered picture
      expect(first.body.files_deleted).toBeGreaterThanOrEqual(2);
      expect((await redact()).body).toEqual({ ...first.body, files_deleted: 0 });
      expect((await poll(job.body.id)).body).toEqual({ ...job.body, result: null });
    });

    it('replays an idempotent call and refuses a reused key', async () => {
      const key = randomUUID();
      const form = () => formWith('image', [imageFile('same-bytes')]);
      const first = await call(target().baseUrl, 'POST', '/v1/plate.read', {
        key: target().testKey,
        form: form(),
        headers: { 'Idempotency-Key': key },
      });
      const replay = await call(target().baseUrl, 'POST', '/v1/plate.read', {
        key: target().testKey,
        form: form(),
        headers: { 'Idempotency-Key': key },
      });
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.body.id).toBe(first.body.id);
      expectEnvelope(
        await call(target().baseUrl, 'POST', '/v1/vin.read', {
          key: target().testKey,
          form: form(),
          headers: { 'Idempotency-Key': key },
        }),
        409,
        'conflict',
        'idempotency_key_reuse',
        'Idempotency-Key',
      );
    });

    it('answers errors in the envelope', async () => {
      expectEnvelope(
        await call(target().baseUrl, 'POST', '/v1/plate.read', { form: formWith('image', [imageFile()]) }),
        401,
        'authentication',
        'invalid_api_key',
      );
      expectEnvelope(
        await call(target().baseUrl, 'POST', '/v1/plate.read', { key: target().testKey, json: {} }),
        400,
        'invalid_request',
        'missing_input',
        'input_ref',
      );
      expectEnvelope(
        await call(target().baseUrl, 'POST', '/v1/render.360?wait=true', { key: target().testKey, json: {} }),
        400,
        'invalid_request',
        'wait_not_supported',
        'wait',
      );
      expectEnvelope(
        await call(target().baseUrl, 'GET', '/v1/jobs/job_1111111111111', { key: target().testKey }),
        404,
        'not_found',
        'job_not_found',
        'id',
      );
      expectEnvelope(
        await call(target().baseUrl, 'GET', '/v1/nothing-here', { key: target().testKey }),
        404,
        'not_found',
        'route_not_found',
      );
    });

    it("answers an unknown route with the service's own 404: its req_ id in request_id and Request-Id", async () => {
      for (const [method, path] of [
        ['GET', '/v1/nothing-here'],
        ['POST', '/v1/jobs/job_1111111111111/nothing'],
        ['DELETE', '/nothing/at/all'],
      ] as const) {
        const answer = await call(target().baseUrl, method, path, { key: target().testKey });
        expectEnvelope(answer, 404, 'not_found', 'route_not_found');
        expect(answer.headers.get('request-id'), `${method} ${path}`).toMatch(/^req_/);
        expect(answer.body.error.message).toBe(`No route ${method} ${path}.`);
      }
    });
  });
}
