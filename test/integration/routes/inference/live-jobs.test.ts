import { describe, expect, it } from 'vitest';
import { CATALOGUE, type InferenceSlug, modelVersionOf } from '../../../../lambdas/domain/catalogue/catalogue.js';
import type { JobRecord } from '../../../../lambdas/domain/jobs/job.js';
import { epochSeconds } from '../../../../lambdas/domain/kernel/clock.js';
import { signatureHeader } from '../../../../lambdas/domain/kernel/signatures.js';
import type { InferencePlane } from '../../../../lambdas/domain/ports/jobs.js';
import { runSandboxModel, storeProducedFiles } from '../../../../lambdas/sandbox/backend.js';
import { resultSchemas } from '../../../../lambdas/schemas/results/index.js';
import { INFERENCE_SLUGS, settled, submit } from '../../../support/endpoint-calls.js';
import { type ApiResponse, call, eventually, expectEnvelope, formWith, imageFile } from '../../../support/http.js';
import { download, pngInfo } from '../../../support/images.js';
import { expectMoneyInvariants } from '../../../support/invariants.js';
import { sharedTestService, type TestService } from '../../../support/service.js';

/**
 * Live keys: the job is handed to the inference plane, which reports back through the signed
 * `POST /internal/v1/completions`. The first service runs the bundled fixture plane (it runs the
 * sandbox models and calls the route over HTTP, as `INFERENCE_PLANE=fixture npm start` does); the second a plane that
 * accepts and stays silent, so the test itself plays the plane and attacks the route.
 */

interface CallbackOptions {
  /** the header to send as is; null sends none */
  header?: string | null;
  secret?: string | string[];
  /** signature date, unix seconds; default now on the service clock */
  t?: number;
  /** bytes to send instead of the JSON of `body` (signed unless `header` is given) */
  raw?: string;
  contentType?: string;
}

function sendCallback(svc: TestService, body: unknown, options: CallbackOptions = {}): Promise<ApiResponse> {
  const raw = options.raw ?? JSON.stringify(body);
  const header =
    options.header !== undefined
      ? options.header
      : signatureHeader(
          raw,
          options.secret ?? svc.services.config.inferenceCallbackSecret!,
          options.t ?? epochSeconds(svc.clock),
        );
  return call(svc.baseUrl, 'POST', '/internal/v1/completions', {
    rawBody: raw,
    headers: {
      'Content-Type': options.contentType ?? 'application/json',
      ...(header === null ? {} : { 'X-Inference-Signature': header }),
    },
  });
}

/** A plane that accepts every job, records it, and never calls back: the test plays the plane. */
function silentPlane(accepted: string[]): InferencePlane {
  return {
    submit: async (job) => {
      accepted.push(job.id);
      return true;
    },
  };
}

const liveBalance = (svc: TestService) => svc.services.accounts.getBalance(svc.org.organization.id, true);

async function ledgerOf(svc: TestService, jobId: string) {
  const page = await svc.services.accounts.listLedger({ orgId: svc.org.organization.id, livemode: true, limit: 100 });
  return page.items
    .filter((entry) => entry.job_id === jobId)
    .map((entry) => ({ kind: entry.kind, amount: entry.amount }));
}

describe('live jobs on the fixture inference plane', () => {
  const svc = sharedTestService({ livePlane: 'fixture' });

  it('a live job goes queued → processing → succeeded through the signed callback, on the live balance, with the sandbox result', async () => {
    const orgId = svc.org.organization.id;
    const [liveBefore, testBefore] = [await liveBalance(svc), await svc.services.accounts.getBalance(orgId, false)];
    const created = await call(svc.baseUrl, 'POST', '/v1/plate.read', {
      key: svc.org.liveKey,
      form: formWith('image', [imageFile('live-plate')]),
    });
    expect(created.status).toBe(202);
    expect(created.body).toMatchObject({
      status: 'queued',
      livemode: true,
      started_at: null,
      model_version: null,
      credits: { reserved: 2, charged: null },
    });

    const seen = new Set<string>();
    await eventually(async () => {
      const job = await svc.services.jobs.get(created.body.id);
      seen.add(job!.status);
      return job!.status === 'succeeded';
    });
    expect([...seen].every((status) => ['queued', 'processing', 'succeeded'].includes(status))).toBe(true);

    const job = await call(svc.baseUrl, 'GET', `/v1/jobs/${created.body.id}`, { key: svc.org.liveKey });
    expect(job.body).toMatchObject({
      status: 'succeeded',
      livemode: true,
      // a fixture, not a model, made it, and says so
      model_version: `${modelVersionOf(CATALOGUE['plate.read'])}-fixture`,
      credits: { reserved: 2, charged: 2 },
      error: null,
    });
    expect(job.body.started_at).toBeGreaterThanOrEqual(job.body.created);
    expect(job.body.completed_at).toBeGreaterThanOrEqual(job.body.started_at);
    expect(resultSchemas['plate.read'].safeParse(job.body.result).success).toBe(true);
    expect(job.body).not.toHaveProperty('test_scenario');

    // the fixture plane runs the very sandbox model a test key gets for the same input
    const test = await call(svc.baseUrl, 'POST', '/v1/plate.read?wait=true', {
      key: svc.org.testKey,
      form: formWith('image', [imageFile('live-plate')]),
    });
    expect(test.body.result).toEqual(job.body.result);

    expect(await liveBalance(svc)).toBe(liveBefore - 2);
    expect(await svc.services.accounts.getBalance(orgId, false)).toBe(testBefore - 2);
    expect(await ledgerOf(svc, created.body.id)).toEqual(
      expect.arrayContaining([
        { kind: 'reserve', amount: -2 },
        { kind: 'commit', amount: 0 },
      ]),
    );
    await expectMoneyInvariants(svc.services, orgId, true);
    await expectMoneyInvariants(svc.services, orgId, false);
  });

  it('a live render job produces signed files that download as real PNGs, charged per image', async () => {
    const before = await liveBalance(svc);
    const job = await call(svc.baseUrl, 'POST', '/v1/render.background?wait=true', {
      key: svc.org.liveKey,
      form: formWith('images', [imageFile('live-a'), imageFile('live-b')], { return_cutout: 'true' }),
    });
    expect(job.status).toBe(200);
    expect(job.body).toMatchObject({ status: 'succeeded', livemode: true, credits: { reserved: 20, charged: 20 } });
    expect(resultSchemas['render.background'].safeParse(job.body.result).success).toBe(true);
    for (const entry of job.body.result.images) {
      for (const file of [entry.image, entry.cutout]) {
        expect(file).toMatchObject({ content_type: 'image/png' });
        const fetched = await download(file.url);
        expect(fetched.status).toBe(200);
        expect(fetched.bytes.length).toBe(file.size_bytes);
        // settlement reads a produced image's size from its header
        expect(pngInfo(fetched.bytes), 'a real PNG').toMatchObject({ width: file.width, height: file.height });
      }
    }
    expect(await liveBalance(svc)).toBe(before - 20);
  });

  it('every available endpoint settles live with a result its schema accepts', async () => {
    const jobs = await Promise.all(
      INFERENCE_SLUGS.map(async (slug) => {
        const created = await submit(svc.baseUrl, slug, svc.org.liveKey, {}, `live-${slug}`);
        expect(created.status, slug).toBeLessThan(300);
        return [
          slug,
          created.status === 200 ? created : await settled(svc.baseUrl, svc.org.liveKey, created.body.id),
        ] as const;
      }),
    );
    for (const [slug, job] of jobs) {
      expect(job.body, slug).toMatchObject({
        status: 'succeeded',
        livemode: true,
        model_version: `${modelVersionOf(CATALOGUE[slug])}-fixture`,
      });
      const parsed = resultSchemas[slug as InferenceSlug].safeParse(job.body.result);
      expect(parsed.success, `${slug}: ${JSON.stringify(parsed.error?.issues[0])}`).toBe(true);
    }
    await expectMoneyInvariants(svc.services, svc.org.organization.id, true);
  });

  it('a second callback for a settled job answers 200 and changes nothing: charged once', async () => {
    const job = await call(svc.baseUrl, 'POST', '/v1/plate.read?wait=true', {
      key: svc.org.liveKey,
      form: formWith('image', [imageFile('twice')]),
    });
    expect(job.body.status).toBe('succeeded');
    const [balance, ledger] = [await liveBalance(svc), await ledgerOf(svc, job.body.id)];
    const record = (await svc.services.jobs.get(job.body.id))!;

    const again = await sendCallback(svc, {
      job_id: job.body.id,
      status: 'succeeded',
      model_version: 'plate-reader-v7@2026-09-01',
      result: record.result,
      billable_units: 1,
    });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ received: true, job_id: job.body.id, status: 'succeeded' });
    const failedLate = await sendCallback(svc, {
      job_id: job.body.id,
      status: 'failed',
      model_version: 'plate-reader-v7@2026-09-01',
      error: { code: 'model_inference_failed', message: 'late' },
    });
    expect(failedLate.body).toEqual({ received: true, job_id: job.body.id, status: 'succeeded' });

    const after = await call(svc.baseUrl, 'GET', `/v1/jobs/${job.body.id}`, { key: svc.org.liveKey });
    expect(after.body).toMatchObject({
      status: 'succeeded',
      model_version: job.body.model_version,
      credits: { reserved: 2, charged: 2 },
    });
    expect(after.body.result).toEqual(job.body.result);
    expect(await liveBalance(svc)).toBe(balance);
    expect(await ledgerOf(svc, job.body.id)).toEqual(ledger);
  });
});

describe('the completion callback route', () => {
  const accepted: string[] = [];

  const svc = sharedTestService({ livePlane: silentPlane(accepted) });

  async function processingLiveJob(
    slug: InferenceSlug = 'plate.read',
    files: Blob[] = [imageFile(`cb-${Math.random()}`)],
    fields: Record<string, string> = {},
  ): Promise<JobRecord> {
    const endpoint = CATALOGUE[slug];
    const created = await call(svc.baseUrl, 'POST', `/v1/${slug}`, {
      key: svc.org.liveKey,
      form: formWith(endpoint.fileField === 'images' ? 'images' : endpoint.fileField!, files, fields),
    });
    expect(created.status).toBe(202);
    return eventually(async () => {
      const job = await svc.services.jobs.get(created.body.id);
      return job?.status === 'processing' ? job : null;
    });
  }

  /** A succeeded callback carrying what the endpoint's model would produce for this job. */
  async function succeededBody(job: JobRecord, extra: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    return {
      job_id: job.id,
      status: 'succeeded',
      model_version: modelVersionOf(CATALOGUE[job.endpoint]),
      result: (await runSandboxModel(job))!.result,
      ...extra,
    };
  }

  it('refuses unsigned, malformed, wrongly signed, tampered, stale and future-dated callbacks with 401, settling nothing', async () => {
    const job = await processingLiveJob();
    expect(accepted).toContain(job.id);
    const balance = await liveBalance(svc);
    const body = JSON.stringify(await succeededBody(job));
    const secret = svc.services.config.inferenceCallbackSecret!;
    const now = epochSeconds(svc.clock);
    const hex = 'a'.repeat(64);

    const attacks: Array<[string, CallbackOptions | (() => CallbackOptions)]> = [
      ['no header', { header: null }],
      ['empty header', { header: '' }],
      ['not the scheme', { header: 'sha256=abcdef' }],
      ['no timestamp', { header: `v1=${hex}` }],
      ['no v1', { header: `t=${now}` }],
      ['non-numeric timestamp', { header: `t=soon,v1=${hex}` }],
      ['short signature', { header: `t=${now},v1=abc123` }],
      ['two timestamps', { header: `t=${now},t=${now},v1=${hex}` }],
      ['wrong secret', { secret: 'icsec_not_the_shared_secret' }],
      [
        'tampered body',
        {
          header: signatureHeader(body, secret, now),
          raw: body.replace('"status":"succeeded"', '"status":"succeeded","billable_units":0'),
        },
      ],
      [
        'signature of another body',
        {
          header: signatureHeader(JSON.stringify(await succeededBody(job, { billable_units: 0 })), secret, now),
          raw: body,
        },
      ],
      [
        'timestamp changed after signing',
        { header: signatureHeader(body, secret, now).replace(`t=${now}`, `t=${now + 1}`), raw: body },
      ],
      // dated from the clock when sent (a slow run must not drift them back inside the skew)
      ['future timestamp beyond the skew', () => ({ t: epochSeconds(svc.clock) + 301, raw: body })],
      ['past timestamp beyond the skew', () => ({ t: epochSeconds(svc.clock) - 301, raw: body })],
    ];
    for (const [name, attack] of attacks) {
      const options = typeof attack === 'function' ? attack() : attack;
      const response = await sendCallback(svc, null, { raw: body, ...options });
      expectEnvelope(response, 401, 'authentication', 'invalid_signature', 'X-Inference-Signature');
      expect(response.body.error.message, name).toMatch(/X-Inference-Signature/);
    }

    // stale: a correctly signed callback that arrives six minutes late
    const signedNow = signatureHeader(body, secret, epochSeconds(svc.clock));
    svc.clock.advance(6 * 60 * 1000);
    expectEnvelope(
      await sendCallback(svc, null, { raw: body, header: signedNow }),
      401,
      'authentication',
      'invalid_signature',
      'X-Inference-Signature',
    );

    expect((await svc.services.jobs.get(job.id))!.status).toBe('processing');
    expect(await liveBalance(svc)).toBe(balance);

    // while a secret is rolled the plane signs with both: any matching v1 is accepted, within the skew
    const ok = await sendCallback(svc, null, {
      raw: body,
      secret: ['icsec_the_old_secret', secret],
      t: epochSeconds(svc.clock) + 250,
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ received: true, job_id: job.id, status: 'succeeded' });
    const settledJob = await call(svc.baseUrl, 'GET', `/v1/jobs/${job.id}`, { key: svc.org.liveKey });
    // no billable_units: per_image defaults to the number of inputs
    expect(settledJob.body).toMatchObject({ status: 'succeeded', credits: { reserved: 2, charged: 2 } });
    expect(await liveBalance(svc)).toBe(balance);
    await expectMoneyInvariants(svc.services, svc.org.organization.id, true);
  });

  it('answers 409 job_not_processing while the job is still queued, and accepts the retry once it is handed over', async () => {
    svc.worker.pause();
    const created = await call(svc.baseUrl, 'POST', '/v1/plate.read', {
      key: svc.org.liveKey,
      form: formWith('image', [imageFile('queued')]),
    });
    const queued = (await svc.services.jobs.get(created.body.id))!;
    expect(queued.status).toBe('queued');
    const early = await sendCallback(svc, await succeededBody(queued));
    expectEnvelope(early, 409, 'conflict', 'job_not_processing', 'job_id');
    expect((await svc.services.jobs.get(queued.id))!.status).toBe('queued');

    svc.worker.resume();
    const job = await eventually(async () => {
      const current = await svc.services.jobs.get(queued.id);
      return current?.status === 'processing' ? current : null;
    });
    const retried = await sendCallback(svc, await succeededBody(job));
    expect(retried.body).toEqual({ received: true, job_id: job.id, status: 'succeeded' });
  });

  it('answers 404 for an unknown job and for a test-mode job, which never reaches the plane', async () => {
    expectEnvelope(
      await sendCallback(svc, {
        job_id: 'job_1111111111111111',
        status: 'failed',
        model_version: 'x@2026-01-01',
        error: { code: 'model_inference_failed', message: 'x' },
      }),
      404,
      'not_found',
      'job_not_found',
      'job_id',
    );
    const test = await call(svc.baseUrl, 'POST', '/v1/plate.read?wait=true', {
      key: svc.org.testKey,
      form: formWith('image', [imageFile('test-mode')]),
    });
    expect(test.body.status).toBe('succeeded');
    expectEnvelope(
      await sendCallback(svc, {
        job_id: test.body.id,
        status: 'failed',
        model_version: 'x@2026-01-01',
        error: { code: 'model_inference_failed', message: 'x' },
      }),
      404,
      'not_found',
      'job_not_found',
      'job_id',
    );
  });

  it('a failed callback fails the job: processing_error with the plane’s code, charged 0, reservation released', async () => {
    const before = await liveBalance(svc);
    const job = await processingLiveJob();
    expect(await liveBalance(svc)).toBe(before - 2);
    const response = await sendCallback(svc, {
      job_id: job.id,
      status: 'failed',
      model_version: 'plate-reader-v6@2026-07-01',
      error: { code: 'upstream_timeout', message: 'The GPU pool timed out.' },
    });
    expect(response.body).toEqual({ received: true, job_id: job.id, status: 'failed' });

    const failed = await call(svc.baseUrl, 'GET', `/v1/jobs/${job.id}`, { key: svc.org.liveKey });
    expect(failed.body).toMatchObject({
      status: 'failed',
      result: null,
      error: { type: 'processing_error', code: 'upstream_timeout', message: 'The GPU pool timed out.' },
      credits: { reserved: 2, charged: 0 },
      model_version: 'plate-reader-v6@2026-07-01',
    });
    expect(await liveBalance(svc)).toBe(before);
    expect(await ledgerOf(svc, job.id)).toEqual(
      expect.arrayContaining([
        { kind: 'reserve', amount: -2 },
        { kind: 'release', amount: 2 },
      ]),
    );
    await expectMoneyInvariants(svc.services, svc.org.organization.id, true);
  });

  it('refuses bad bodies with 400 naming the parameter, and settles nothing', async () => {
    const job = await processingLiveJob();
    const good = await succeededBody(job);
    const failed = {
      job_id: job.id,
      status: 'failed',
      model_version: 'plate-reader-v6@2026-07-01',
      error: { code: 'model_inference_failed', message: 'no' },
    };
    const { result: _result, ...withoutResult } = good;
    const cases: Array<[string, unknown, string, string | null]> = [
      ['empty body', {}, 'parameter_missing', 'job_id'],
      ['malformed job id', { ...good, job_id: 'nope' }, 'parameter_invalid', 'job_id'],
      ['unknown status', { ...good, status: 'done' }, 'parameter_invalid', 'status'],
      ['no model_version', { ...good, model_version: undefined }, 'parameter_missing', 'model_version'],
      [
        'model_version without a date',
        { ...good, model_version: 'plate-reader-v6' },
        'parameter_invalid',
        'model_version',
      ],
      [
        'model_version with an impossible date',
        { ...good, model_version: 'plate-reader-v6@2026-13-01' },
        'parameter_invalid',
        'model_version',
      ],
      ['succeeded without result', withoutResult, 'parameter_missing', 'result'],
      [
        'succeeded with an error',
        { ...good, error: { code: 'model_inference_failed', message: 'y' } },
        'parameter_invalid',
        'error',
      ],
      ['failed without error', { ...failed, error: undefined }, 'parameter_missing', 'error'],
      ['failed with a result', { ...failed, result: {} }, 'parameter_invalid', 'result'],
      [
        'error code the API does not document (a job error code is one of JobErrorCode)',
        { ...failed, error: { code: 'gpu_on_fire', message: 'no' } },
        'parameter_invalid',
        'error.code',
      ],
      ['unknown field', { ...good, priority: 1 }, 'parameter_unknown', 'priority'],
      ['negative billable_units', { ...good, billable_units: -1 }, 'parameter_invalid', 'billable_units'],
      ['result not an object', { ...good, result: [1, 2] }, 'parameter_invalid', 'result'],
      [
        'result not what the endpoint returns',
        { ...good, result: { ...(good.result as object), plates: 'none' } },
        'parameter_invalid',
        'result.plates',
      ],
    ];
    for (const [name, body, code, param] of cases) {
      const response = await sendCallback(svc, body);
      expect(response.status, name).toBe(400);
      expectEnvelope(response, 400, 'invalid_request', code, param);
    }
    expectEnvelope(await sendCallback(svc, null, { raw: '{"job_id":' }), 400, 'invalid_request', 'invalid_json');
    expectEnvelope(
      await sendCallback(svc, null, { raw: JSON.stringify(good), contentType: 'text/plain' }),
      400,
      'invalid_request',
      'unsupported_media_type',
    );
    expect((await svc.services.jobs.get(job.id))!.status).toBe('processing');
  });

  it('resolves the files a result references from the bucket, and refuses a reference to a missing object', async () => {
    const job = await processingLiveJob('vehicle.segment', [imageFile('files')], { output: 'both' });
    const output = (await runSandboxModel(job))!;
    expect(Object.keys(output.files).sort()).toEqual(['cutout.png', 'mask.png']);
    const body = {
      job_id: job.id,
      status: 'succeeded',
      model_version: modelVersionOf(CATALOGUE['vehicle.segment']),
      result: output.result,
    };

    // the plane stored only the mask
    await storeProducedFiles(svc.services.objects, job, { 'mask.png': output.files['mask.png']! });
    const missing = await sendCallback(svc, body);
    expectEnvelope(missing, 400, 'invalid_request', 'parameter_invalid', 'result');
    expect(missing.body.error.message).toContain('cutout.png');
    const escaping = await sendCallback(svc, {
      ...body,
      result: { ...output.result, cutout: { file_key: '../other/cutout.png' } },
    });
    expectEnvelope(escaping, 400, 'invalid_request', 'parameter_invalid', 'result');
    expect((await svc.services.jobs.get(job.id))!.status).toBe('processing');

    await storeProducedFiles(svc.services.objects, job, output.files);
    expect((await sendCallback(svc, body)).body).toEqual({ received: true, job_id: job.id, status: 'succeeded' });
    const done = await call(svc.baseUrl, 'GET', `/v1/jobs/${job.id}`, { key: svc.org.liveKey });
    expect(resultSchemas['vehicle.segment'].safeParse(done.body.result).success).toBe(true);
    for (const name of ['mask', 'cutout'] as const) {
      const file = done.body.result[name];
      expect(file).toMatchObject({
        content_type: 'image/png',
        size_bytes: output.files[`${name}.png`]!.bytes.byteLength,
        width: output.files[`${name}.png`]!.width,
        height: output.files[`${name}.png`]!.height,
      });
      const fetched = await download(file.url);
      expect(Buffer.compare(fetched.bytes, Buffer.from(output.files[`${name}.png`]!.bytes))).toBe(0);
    }
  });

  it('a per-second endpoint must report its billable seconds', async () => {
    const job = await processingLiveJob('engine.detect', [
      new Blob([Buffer.alloc(3000, 'engine')], { type: 'audio/wav' }),
    ]);
    expectEnvelope(
      await sendCallback(svc, await succeededBody(job)),
      400,
      'invalid_request',
      'parameter_missing',
      'billable_units',
    );
    expect((await sendCallback(svc, await succeededBody(job, { billable_units: 12 }))).body.status).toBe('succeeded');
    const done = await call(svc.baseUrl, 'GET', `/v1/jobs/${job.id}`, { key: svc.org.liveKey });
    expect(done.body.credits).toEqual({ reserved: 30, charged: 12 });
  });
});

describe('a live job the plane never reports on', () => {
  const submissions: string[] = [];

  const svc = sharedTestService({ livePlane: silentPlane(submissions) });

  it('is submitted again after a while, then fails as upstream_timeout with its reservation released', async () => {
    const before = await liveBalance(svc);
    const created = await call(svc.baseUrl, 'POST', '/v1/plate.read', {
      key: svc.org.liveKey,
      form: formWith('image', [imageFile('silent')]),
    });
    expect(created.status).toBe(202);
    await eventually(async () => (await svc.services.jobs.get(created.body.id))?.status === 'processing');
    expect(submissions.filter((id) => id === created.body.id)).toHaveLength(1);

    svc.clock.advance((svc.services.config.liveResubmitSeconds + 1) * 1000);
    await svc.sweeper.sweep();
    expect(submissions.filter((id) => id === created.body.id)).toHaveLength(2);
    expect((await svc.services.jobs.get(created.body.id))?.status).toBe('processing');

    svc.clock.advance(svc.services.config.liveProcessingTimeoutSeconds * 1000);
    await svc.sweeper.sweep();
    const job = await call(svc.baseUrl, 'GET', `/v1/jobs/${created.body.id}`, { key: svc.org.liveKey });
    expect(job.body).toMatchObject({
      status: 'failed',
      result: null,
      credits: { reserved: 2, charged: 0 },
      error: { type: 'processing_error', code: 'upstream_timeout' },
    });
    expect(await liveBalance(svc)).toBe(before);
    await expectMoneyInvariants(svc.services, svc.org.organization.id, true);
  });
});
