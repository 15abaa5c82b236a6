import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { firstJob } from '../../../client/examples/first-job.js';
import { onboardVideo } from '../../../client/examples/upload-and-wait.js';
import { webhookHandler } from '../../../client/examples/verify-webhook.js';
import { PACKAGE_FILE, packageMajor } from '../../../client/scripts/generate.js';
import { AisError, createAisClient, MIN_POLL_INTERVAL_MS, verifyWebhook } from '../../../client/src/index.js';
import { eventually, imageFile } from '../../support/http.js';
import { asRole } from '../../support/management.js';
import { sharedTestService } from '../../support/service.js';

const svc = sharedTestService();

describe('the typed client (client/)', () => {
  it("its package version's major is the API version it was generated from (2026-08-01 → 20260801.x.y)", () => {
    const { version } = JSON.parse(readFileSync(PACKAGE_FILE, 'utf8')) as { version: string };
    expect(version).toMatch(/^\d{8}\.\d+\.\d+$/);
    expect(Number(version.split('.')[0])).toBe(packageMajor(svc.services.config.apiVersion));
  });

  it('example: first job, run and waited for, typed result', async () => {
    const plates = await firstJob(svc.baseUrl, svc.org.testKey, imageFile('client-example'));
    expect(Array.isArray(plates)).toBe(true);
  });

  it('example: upload in one call, then a second use of the ref is an AisError falling back to its type', async () => {
    const { job, reuse } = await onboardVideo(
      svc.baseUrl,
      svc.org.testKey,
      new Blob([Buffer.alloc(4096, 'video')], { type: 'video/mp4' }),
    );
    expect(job.status).toBe('succeeded');
    // upload_already_consumed is not in the example's known list: its kind is the type
    expect(reuse).toBe('conflict');
  });

  it('example: a receiver that verifies signatures and deduplicates gets the settled job once', async () => {
    const events: string[] = [];
    let handle: ReturnType<typeof webhookHandler> = (_request, response) => response.writeHead(503).end();
    const receiver = createServer((request, response) => handle(request, response));
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const port = (receiver.address() as { port: number }).port;
    try {
      const endpoint = await asRole(svc, 'admin', 'POST', '/mgmt/v1/webhook-endpoints', {
        json: { url: `http://127.0.0.1:${port}/hooks`, enabled_events: ['job.succeeded'] },
      });
      handle = webhookHandler(endpoint.body.secret, (event) =>
        events.push(`${event.type}:${'job' in event.data ? event.data.job.id : event.data.batch.id}`),
      );
      const client = createAisClient({ baseUrl: svc.baseUrl, apiKey: svc.org.testKey });
      const job = await client.createJob('vin.read', { files: { image: imageFile('client-hook') } });
      await eventually(async () => events.includes(`job.succeeded:${job.id}`));
      await asRole(svc, 'admin', 'DELETE', `/mgmt/v1/webhook-endpoints/${endpoint.body.id}`);
    } finally {
      receiver.close();
    }
  });

  it('adds an Idempotency-Key to every POST: a retried call with the same key replays', async () => {
    const sent: string[] = [];
    const client = createAisClient({
      baseUrl: svc.baseUrl,
      apiKey: svc.org.testKey,
      fetch: async (input, init) => {
        const headers = new Headers(init?.headers ?? (input as Request).headers);
        if ((init?.method ?? (input as Request).method) === 'POST') sent.push(headers.get('Idempotency-Key') ?? '');
        return fetch(input, init);
      },
    });
    const first = await client.createJob('plate.read', {
      files: { image: imageFile('idem') },
      idempotencyKey: 'client-retry-0001',
    });
    const again = await client.createJob('plate.read', {
      files: { image: imageFile('idem') },
      idempotencyKey: 'client-retry-0001',
    });
    expect(again.id).toBe(first.id);
    await client.createJob('plate.read', { files: { image: imageFile('idem-2') } });
    expect(sent[2]).toMatch(/^[0-9a-f-]{36}$/);
    const { data } = await client.api.GET('/v1/jobs/{id}', { params: { path: { id: first.id } } });
    expect(data?.id).toBe(first.id);
  });

  it('quotes a call: the reservation its job then holds, sent without an Idempotency-Key', async () => {
    const keys: Array<string | null> = [];
    const client = createAisClient({
      baseUrl: svc.baseUrl,
      apiKey: svc.org.testKey,
      fetch: async (input, init) => {
        keys.push(new Headers(init?.headers ?? (input as Request).headers).get('Idempotency-Key'));
        return fetch(input, init);
      },
    });
    const image = imageFile('quoted');
    const quote = await client.quote('damage.detect', {
      inputs: [{ content_type: 'image/jpeg', size_bytes: image.size }],
    });
    expect(quote).toMatchObject({ object: 'quote', endpoint: 'damage.detect', affordable: true });
    expect(keys).toEqual([null]);
    const job = await client.createJob('damage.detect', { files: { image } });
    expect(job.credits.reserved).toBe(quote.credits.reserve);
    const refused = await client.quote('damage.detect', {}).catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 400, code: 'missing_input', param: 'input_ref' });
  });

  it('polls no faster than once a second, with backoff', async () => {
    const polls: number[] = [];
    const client = createAisClient({
      baseUrl: svc.baseUrl,
      apiKey: svc.org.testKey,
      fetch: async (input, init) => {
        if ((init?.method ?? 'GET') === 'GET') polls.push(Date.now());
        return fetch(input, init);
      },
    });
    const job = await client.createJob('plate.read', { files: { image: imageFile('slow-poll') }, scenario: 'slow' });
    const settled = await client.waitForJob(job.id, { initialDelayMs: 10 });
    expect(settled.status).toBe('succeeded');
    const gaps = polls.slice(1).map((at, i) => at - polls[i]!);
    expect(polls.length).toBeGreaterThanOrEqual(2);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(MIN_POLL_INTERVAL_MS - 5);
  });

  it('deadlineSeconds sends Svc-Deadline: a slow job past it ends expired, deadline_exceeded, charged nothing', async () => {
    const client = createAisClient({ baseUrl: svc.baseUrl, apiKey: svc.org.testKey });
    const job = await client.run(
      'plate.read',
      { files: { image: imageFile('client-deadline') }, scenario: 'slow', deadlineSeconds: 1 },
      { initialDelayMs: 10 },
    );
    expect(job).toMatchObject({ status: 'expired', error: { code: 'deadline_exceeded' }, credits: { charged: 0 } });
  });

  it('errors are AisError with the envelope; unknown codes are handled as their type', async () => {
    const client = createAisClient({ baseUrl: svc.baseUrl, apiKey: 'chk_test_00000000000000000000000000000000' });
    const error = await client.getJob('job_1111111111111111111111').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AisError);
    expect(error).toMatchObject({ status: 401, type: 'authentication', code: 'invalid_api_key' });
    expect((error as AisError).kind([])).toBe('authentication');
    expect((error as AisError).kind(['invalid_api_key'])).toBe('invalid_api_key');
  });

  it('verifyWebhook refuses a forged body and a stale timestamp', () => {
    const secret = 'whsec_dGVzdHNlY3JldHRlc3RzZWNyZXR0ZXN0c2VjcmV0MTI=';
    const body = JSON.stringify({ id: 'evt_1' });
    const t = Math.floor(Date.now() / 1000);
    const header = `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
    expect(verifyWebhook(body, header, secret).id).toBe('evt_1');
    expect(() => verifyWebhook(`${body} `, header, secret)).toThrow(/does not match/);
    expect(() => verifyWebhook(body, header, secret, 300, t + 301)).toThrow(/tolerance/);
  });

  it('batches: submit uploads an array as JSONL and creates the batch; get, list, wait and cancel', async () => {
    const client = createAisClient({ baseUrl: svc.baseUrl, apiKey: svc.org.testKey });
    const lines = [
      { custom_id: 'a', params: { vin: 'WVWZZZ1KZ00000011' } },
      { custom_id: 'b', params: { vin: 'bad' } },
    ];
    const created = await client.batches.submit('pricing.vehicle', lines);
    expect(created).toMatchObject({ object: 'batch', status: 'validating', counts: { total: 2 } });
    expect((await client.batches.get(created.id)).id).toBe(created.id);
    expect((await client.batches.list({ limit: 5 })).data.map((batch) => batch.id)).toContain(created.id);
    const done = await client.batches.wait(created.id, { initialDelayMs: 1000 });
    expect(done).toMatchObject({ status: 'succeeded', counts: { total: 2, succeeded: 1, failed: 1 } });
    const output = (await (await fetch(done.output_file!.url)).text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(output.map((line) => [line.custom_id, line.status])).toEqual([
      ['a', 'succeeded'],
      ['b', 'failed'],
    ]);
    await expect(client.batches.cancel(created.id)).rejects.toMatchObject({
      status: 409,
      code: 'batch_not_cancelable',
    });
  });
});
