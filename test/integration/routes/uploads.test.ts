import { beforeAll, describe, expect, it } from 'vitest';
import { settled } from '../../support/endpoint-calls.js';
import { type ApiResponse, call, expectEnvelope } from '../../support/http.js';
import { ledgerSum } from '../../support/ledger.js';
import { sharedTestService } from '../../support/service.js';
import { verifyPresignedUrl } from '../../support/sigv4.js';
import { uploadFile } from '../../support/uploads.js';

let key: string;
let orgId: string;

const svc = sharedTestService();
beforeAll(async () => {
  key = svc.org.testKey;
  orgId = svc.org.organization.id;
});

const post = (path: string, options: Parameters<typeof call>[3] = {}): Promise<ApiResponse> =>
  call(svc.baseUrl, 'POST', path, { key, ...options });

/** A JPEG-looking payload whose bytes depend on `seed`. */
function jpeg(seed: string, size = 3000): Buffer {
  const bytes = Buffer.alloc(size, seed);
  bytes[0] = 0xff;
  bytes[1] = 0xd8;
  return bytes;
}

async function state(livemode = false) {
  const jobs = await svc.services.jobs.list({ orgId, livemode, limit: 100 });
  return {
    balance: await svc.services.accounts.getBalance(orgId, livemode),
    ledger: await ledgerSum(svc.services, orgId, livemode),
    jobs: jobs.items.length,
  };
}

/** Runs `rejected` and checks it left no job, no reservation and no ledger entry behind. */
async function expectNothingCharged(rejected: () => Promise<void>): Promise<void> {
  const before = await state();
  await rejected();
  expect(await state()).toEqual(before);
}

describe('POST /v1/uploads', () => {
  it('answers 201 with a presigned PUT whose signature binds the declared type and size', async () => {
    const started = Math.floor(svc.clock.nowMs() / 1000);
    const created = await post('/v1/uploads', {
      json: { content_type: 'video/mp4', size_bytes: 52_428_800, filename: 'walkaround.mp4' },
    });
    const answered = Math.ceil(svc.clock.nowMs() / 1000);
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      object: 'upload',
      upload_ref: expect.stringMatching(/^upl_[1-9A-HJ-NP-Za-km-z]{8,32}$/),
      url: expect.any(String),
      method: 'PUT',
      headers: { 'Content-Type': 'video/mp4' },
      expires_at: expect.any(Number),
    });
    // issued while the call ran: its TTL from some moment between the request and the answer
    expect(created.body.expires_at).toBeGreaterThanOrEqual(started + svc.services.config.uploadUrlTtlSeconds);
    expect(created.body.expires_at).toBeLessThanOrEqual(answered + svc.services.config.uploadUrlTtlSeconds);
    const url = new URL(created.body.url);
    expect(url.pathname).toContain(`/uploads/${orgId}/${created.body.upload_ref}`);
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;content-type;host');
    // the signature binds the declared type and size, as the stand-in and S3 check it
    const credentials = svc.services.infrastructure.credentials!;
    const now = svc.clock.nowMs();
    expect(
      await verifyPresignedUrl(created.body.url, {
        credentials,
        method: 'PUT',
        nowMs: now,
        headers: { 'Content-Type': 'video/mp4', 'Content-Length': '52428800' },
      }),
    ).toEqual({
      valid: true,
    });
    expect(
      await verifyPresignedUrl(created.body.url, {
        credentials,
        method: 'PUT',
        nowMs: now,
        headers: { 'Content-Type': 'image/jpeg', 'Content-Length': '52428800' },
      }),
    ).toMatchObject({ valid: false });
    expect(
      await verifyPresignedUrl(created.body.url, {
        credentials,
        method: 'PUT',
        nowMs: now,
        headers: { 'Content-Type': 'video/mp4', 'Content-Length': '60000000' },
      }),
    ).toMatchObject({ valid: false });
  });

  it('accepts exactly 500 MB and refuses more, or nothing', async () => {
    expect(
      (await post('/v1/uploads', { json: { content_type: 'video/mp4', size_bytes: 500 * 1024 * 1024 } })).status,
    ).toBe(201);
    expectEnvelope(
      await post('/v1/uploads', { json: { content_type: 'video/mp4', size_bytes: 500 * 1024 * 1024 + 1 } }),
      400,
      'invalid_request',
      'parameter_invalid',
      'size_bytes',
    );
    expectEnvelope(
      await post('/v1/uploads', { json: { content_type: 'image/jpeg', size_bytes: 0 } }),
      400,
      'invalid_request',
      'parameter_invalid',
      'size_bytes',
    );
    expectEnvelope(
      await post('/v1/uploads', { json: { content_type: 'image/jpeg', size_bytes: -5 } }),
      400,
      'invalid_request',
      'parameter_invalid',
      'size_bytes',
    );
    expectEnvelope(
      await post('/v1/uploads', { json: { content_type: 'image/jpeg', size_bytes: 10.5 } }),
      400,
      'invalid_request',
      'parameter_invalid',
      'size_bytes',
    );
    expectEnvelope(
      await post('/v1/uploads', { json: { content_type: 'image/jpeg', size_bytes: '1000' } }),
      400,
      'invalid_request',
      'parameter_invalid',
      'size_bytes',
    );
  });

  it('refuses a media type no endpoint takes', async () => {
    for (const contentType of ['text/html', 'application/x-sh', 'image/svg+xml', 'image/jpeg; charset=binary']) {
      expectEnvelope(
        await post('/v1/uploads', { json: { content_type: contentType, size_bytes: 100 } }),
        400,
        'invalid_request',
        'parameter_invalid',
        'content_type',
      );
    }
  });

  it('names missing, unknown and malformed fields, and bad JSON', async () => {
    expectEnvelope(
      await post('/v1/uploads', { json: { size_bytes: 100 } }),
      400,
      'invalid_request',
      'parameter_missing',
      'content_type',
    );
    expectEnvelope(
      await post('/v1/uploads', { json: { content_type: 'image/png' } }),
      400,
      'invalid_request',
      'parameter_missing',
      'size_bytes',
    );
    expectEnvelope(
      await post('/v1/uploads', { json: { content_type: 'image/png', size_bytes: 100, checksum: 'abc' } }),
      400,
      'invalid_request',
      'parameter_unknown',
      'checksum',
    );
    expectEnvelope(
      await post('/v1/uploads', { json: { content_type: 'image/png', size_bytes: 100, filename: 'x'.repeat(256) } }),
      400,
      'invalid_request',
      'parameter_invalid',
      'filename',
    );
    expectEnvelope(
      await post('/v1/uploads', {
        rawBody: '{"content_type": "image/png",',
        headers: { 'Content-Type': 'application/json' },
      }),
      400,
      'invalid_request',
      'invalid_json',
      null,
    );
    expectEnvelope(
      await post('/v1/uploads', { rawBody: '["image/png", 100]', headers: { 'Content-Type': 'application/json' } }),
      400,
      'invalid_request',
      'invalid_json',
      null,
    );
    expectEnvelope(
      await post('/v1/uploads', { rawBody: 'content_type=image/png', headers: { 'Content-Type': 'text/plain' } }),
      400,
      'invalid_request',
      'unsupported_media_type',
      'Content-Type',
    );
  });

  it('needs an API key', async () => {
    expectEnvelope(
      await call(svc.baseUrl, 'POST', '/v1/uploads', { json: { content_type: 'image/png', size_bytes: 100 } }),
      401,
      'authentication',
      'invalid_api_key',
    );
  });
});

describe('upload → PUT → job', () => {
  it('runs a video endpoint from an input_ref (JSON is the only encoding videos take)', async () => {
    const video = Buffer.alloc(1_500_000, 'walkaround');
    const ref = await uploadFile(svc.baseUrl, key, 'video/mp4', video, 'walkaround.mp4');
    const created = await post('/v1/video.onboard', { json: { input_ref: ref } });
    expect(created.status).toBe(202);
    const job = await settled(svc.baseUrl, key, created.body.id);
    expect(job.body.status).toBe('succeeded');
    expect(job.body.result).not.toBeNull();
    const stored = await svc.services.jobs.get(created.body.id);
    expect(stored?.inputs).toEqual([
      expect.objectContaining({
        index: 0,
        filename: 'walkaround.mp4',
        content_type: 'video/mp4',
        size_bytes: video.length,
        object_key: `uploads/${orgId}/${ref}`,
      }),
    ]);
  });

  it('runs an image endpoint from an input_ref, with the same parameters as multipart', async () => {
    const ref = await uploadFile(svc.baseUrl, key, 'image/jpeg', jpeg('plate'), 'car.jpg');
    const job = await post('/v1/plate.read?wait=true', { json: { input_ref: ref, country: 'DE', return_crops: true } });
    expect(job.status).toBe(200);
    expect(job.body.status).toBe('succeeded');
    expect(job.body.endpoint).toBe('plate.read');
  });

  it('runs render.background on 30 input_refs: one result per input, in input order', async () => {
    const folders = ['exterior/front', 'interior', 'tires', 'trunk', 'engine'];
    const filenames = Array.from(
      { length: 30 },
      (_, i) => `stock-4711/${folders[i % folders.length]}/${String(i).padStart(2, '0')}.jpg`,
    );
    const refs = await Promise.all(
      filenames.map((filename, i) =>
        uploadFile(svc.baseUrl, key, i % 2 ? 'image/png' : 'image/jpeg', jpeg(`batch-${i}`, 2000 + i), filename),
      ),
    );
    const before = await state();
    const job = await post('/v1/render.background?wait=true', {
      json: { input_refs: refs, background: 'showroom', return_cutout: true, traceability: 'stock-4711' },
    });
    expect(job.status).toBe(200);
    expect(job.body.status).toBe('succeeded');
    const images = job.body.result.images as Array<{
      index: number;
      filename: string;
      category: string;
      position_source: string;
      traceability: string;
      image: { url: string; content_type: string };
    }>;
    expect(images).toHaveLength(30);
    expect(images.map((image) => image.index)).toEqual(Array.from({ length: 30 }, (_, i) => i));
    expect(images.map((image) => image.filename)).toEqual(filenames);
    expect(images.map((image) => image.category)).toEqual(
      filenames.map((_, i) => ['exterior', 'interior', 'tire', 'trunk', 'engine'][i % 5]),
    );
    expect(
      images.every(
        (image) =>
          image.position_source === 'path' &&
          image.traceability === 'stock-4711' &&
          image.image.content_type === 'image/png',
      ),
    ).toBe(true);
    expect(new Set(images.map((image) => image.image.url)).size).toBe(30);
    expect(job.body.credits).toEqual({ reserved: 300, charged: 300 });
    expect(await state()).toEqual({
      balance: before.balance - 300,
      ledger: before.ledger - 300,
      jobs: before.jobs + 1,
    });
  });
});

describe('consumption', () => {
  it('a consumed ref answers 409 upload_already_consumed naming input_ref, and charges nothing', async () => {
    const ref = await uploadFile(svc.baseUrl, key, 'image/jpeg', jpeg('once'), 'once.jpg');
    expect((await post('/v1/plate.read?wait=true', { json: { input_ref: ref } })).status).toBe(200);
    await expectNothingCharged(async () => {
      expectEnvelope(
        await post('/v1/plate.read', { json: { input_ref: ref } }),
        409,
        'conflict',
        'upload_already_consumed',
        'input_ref',
      );
      expectEnvelope(
        await post('/v1/vin.read', { json: { input_ref: ref } }),
        409,
        'conflict',
        'upload_already_consumed',
        'input_ref',
      );
      const fresh = await uploadFile(svc.baseUrl, key, 'image/jpeg', jpeg('fresh'), 'fresh.jpg');
      expectEnvelope(
        await post('/v1/render.background', { json: { input_refs: [fresh, ref] } }),
        409,
        'conflict',
        'upload_already_consumed',
        'input_refs',
      );
    });
  });

  it('two calls racing for one ref: exactly one job, the other 409 from the admission transaction or the pre-check', async () => {
    const ref = await uploadFile(svc.baseUrl, key, 'image/jpeg', jpeg('race'), 'race.jpg');
    const before = await state();
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => post('/v1/plate.read', { json: { input_ref: ref } })),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([202, 409, 409, 409]);
    for (const answer of answers.filter((a) => a.status === 409))
      expectEnvelope(answer, 409, 'conflict', 'upload_already_consumed', 'input_ref');
    expect(await state()).toEqual({ balance: before.balance - 2, ledger: before.ledger - 2, jobs: before.jobs + 1 });
  });

  it('a refused call consumes nothing: the ref still works afterwards', async () => {
    const ref = await uploadFile(svc.baseUrl, key, 'image/jpeg', jpeg('kept'), 'kept.jpg');
    await expectNothingCharged(async () => {
      expectEnvelope(
        await post('/v1/plate.read', {
          json: { input_ref: ref },
          headers: { 'X-Svc-Test-Scenario': 'insufficient_credits' },
        }),
        402,
        'insufficient_credits',
        'insufficient_credits',
      );
      expectEnvelope(
        await post('/v1/plate.read', { json: { input_ref: ref, country: 'DEU' } }),
        400,
        'invalid_request',
        'parameter_invalid',
        'country',
      );
      expectEnvelope(
        await post('/v1/plate.read', { json: { input_ref: ref, colour: 'red' } }),
        400,
        'invalid_request',
        'parameter_unknown',
        'colour',
      );
    });
    expect((await post('/v1/plate.read', { json: { input_ref: ref } })).status).toBe(202);
  });
});

describe('refs that cannot be used', () => {
  it('a ref of another organisation is upload_not_found', async () => {
    const foreign = await uploadFile(svc.baseUrl, svc.otherOrg.testKey, 'image/jpeg', jpeg('foreign'), 'foreign.jpg');
    await expectNothingCharged(async () => {
      expectEnvelope(
        await post('/v1/plate.read', { json: { input_ref: foreign } }),
        400,
        'invalid_request',
        'upload_not_found',
        'input_ref',
      );
    });
    // and it stays usable by its owner
    expect(
      (await call(svc.baseUrl, 'POST', '/v1/plate.read', { key: svc.otherOrg.testKey, json: { input_ref: foreign } }))
        .status,
    ).toBe(202);
  });

  it('a ref of the other mode is upload_not_found, both ways', async () => {
    const live = await uploadFile(svc.baseUrl, svc.org.liveKey, 'image/jpeg', jpeg('live'), 'live.jpg');
    const test = await uploadFile(svc.baseUrl, key, 'image/jpeg', jpeg('test'), 'test.jpg');
    await expectNothingCharged(async () => {
      expectEnvelope(
        await post('/v1/plate.read', { json: { input_ref: live } }),
        400,
        'invalid_request',
        'upload_not_found',
        'input_ref',
      );
      const liveBalance = await svc.services.accounts.getBalance(orgId, true);
      expectEnvelope(
        await call(svc.baseUrl, 'POST', '/v1/plate.read', { key: svc.org.liveKey, json: { input_ref: test } }),
        400,
        'invalid_request',
        'upload_not_found',
        'input_ref',
      );
      expect(await svc.services.accounts.getBalance(orgId, true)).toBe(liveBalance);
    });
  });

  it('a ref never uploaded to, or that does not exist, is upload_not_found', async () => {
    const created = await post('/v1/uploads', { json: { content_type: 'image/jpeg', size_bytes: 3000 } });
    await expectNothingCharged(async () => {
      const response = await post('/v1/plate.read', { json: { input_ref: created.body.upload_ref } });
      expectEnvelope(response, 400, 'invalid_request', 'upload_not_found', 'input_ref');
      expect(response.body.error.message).toContain('PUT the bytes');
      expectEnvelope(
        await post('/v1/plate.read', { json: { input_ref: 'upl_1111111111111111' } }),
        400,
        'invalid_request',
        'upload_not_found',
        'input_ref',
      );
      expectEnvelope(
        await post('/v1/render.background', { json: { input_refs: ['upl_1111111111111111'] } }),
        400,
        'invalid_request',
        'upload_not_found',
        'input_refs',
      );
    });
  });

  it('a ref whose content type does not fit the endpoint is refused', async () => {
    const video = await uploadFile(svc.baseUrl, key, 'video/mp4', Buffer.alloc(4000, 'v'), 'clip.mp4');
    const image = await uploadFile(svc.baseUrl, key, 'image/jpeg', jpeg('wrong-kind'), 'still.jpg');
    const audio = await uploadFile(svc.baseUrl, key, 'audio/wav', Buffer.alloc(4000, 'a'), 'engine.wav');
    await expectNothingCharged(async () => {
      expectEnvelope(
        await post('/v1/plate.read', { json: { input_ref: video } }),
        400,
        'invalid_request',
        'parameter_invalid',
        'input_ref',
      );
      expectEnvelope(
        await post('/v1/video.onboard', { json: { input_ref: image } }),
        400,
        'invalid_request',
        'parameter_invalid',
        'input_ref',
      );
      expectEnvelope(
        await post('/v1/engine.detect', { json: { input_ref: image } }),
        400,
        'invalid_request',
        'parameter_invalid',
        'input_ref',
      );
      expectEnvelope(
        await post('/v1/render.background', { json: { input_refs: [image, audio] } }),
        400,
        'invalid_request',
        'parameter_invalid',
        'input_refs',
      );
    });
  });

  it('bytes PUT with another type or size than declared are refused (S3 would refuse the PUT itself)', async () => {
    const typed = await post('/v1/uploads', { json: { content_type: 'image/jpeg', size_bytes: 3000 } });
    const sized = await post('/v1/uploads', { json: { content_type: 'image/jpeg', size_bytes: 3000 } });
    // the store refuses both PUTs, as S3 does (test/integration/local/stand-ins/s3-signatures.test.ts)...
    expect(
      (await fetch(typed.body.url, { method: 'PUT', headers: { 'Content-Type': 'text/html' }, body: jpeg('html') }))
        .status,
    ).toBe(403);
    expect(
      (
        await fetch(sized.body.url, {
          method: 'PUT',
          headers: { 'Content-Type': 'image/jpeg' },
          body: jpeg('short', 1000),
        })
      ).status,
    ).toBe(403);
    // ...and should such objects land anyway (written around the presigned URL), admission still refuses them
    const keyOf = (ref: string) => `uploads/${svc.org.organization.id}/${ref}`;
    await svc.services.objects.put(keyOf(typed.body.upload_ref), jpeg('html'), 'text/html');
    await svc.services.objects.put(keyOf(sized.body.upload_ref), jpeg('short', 1000), 'image/jpeg');
    await expectNothingCharged(async () => {
      expectEnvelope(
        await post('/v1/plate.read', { json: { input_ref: typed.body.upload_ref } }),
        400,
        'invalid_request',
        'parameter_invalid',
        'input_ref',
      );
      expectEnvelope(
        await post('/v1/plate.read', { json: { input_ref: sized.body.upload_ref } }),
        400,
        'invalid_request',
        'parameter_invalid',
        'input_ref',
      );
    });
  });

  it('duplicate refs in one call, both fields at once, or a list on a one-input endpoint are refused', async () => {
    const a = await uploadFile(svc.baseUrl, key, 'image/jpeg', jpeg('dup-a'), 'a.jpg');
    const b = await uploadFile(svc.baseUrl, key, 'image/jpeg', jpeg('dup-b'), 'b.jpg');
    await expectNothingCharged(async () => {
      expectEnvelope(
        await post('/v1/render.background', { json: { input_refs: [a, b, a] } }),
        400,
        'invalid_request',
        'parameter_invalid',
        'input_refs',
      );
      expectEnvelope(
        await post('/v1/render.background', { json: { input_ref: a, input_refs: [b] } }),
        400,
        'invalid_request',
        'parameter_invalid',
        'input_refs',
      );
      expectEnvelope(
        await post('/v1/plate.read', { json: { input_refs: [a] } }),
        400,
        'invalid_request',
        'parameter_unknown',
        'input_refs',
      );
      expectEnvelope(
        await post('/v1/render.background', { json: { input_refs: [] } }),
        400,
        'invalid_request',
        'missing_input',
        'input_refs',
      );
      expectEnvelope(
        await post('/v1/render.background', { json: { input_refs: a } }),
        400,
        'invalid_request',
        'parameter_invalid',
        'input_refs',
      );
      expectEnvelope(
        await post('/v1/plate.read', { json: { input_ref: 42 } }),
        400,
        'invalid_request',
        'parameter_invalid',
        'input_ref',
      );
    });
    // none of that consumed them
    expect((await post('/v1/render.background', { json: { input_refs: [a, b] } })).status).toBe(202);
  });

  it('more than 30 refs for render.background is too_many_files', async () => {
    const refs = Array.from({ length: 31 }, (_, i) => `upl_${'1'.repeat(15)}${'ABCDEFGHJKLMNPQRSTUVWXYZabcdefg'[i]}`);
    await expectNothingCharged(async () => {
      expectEnvelope(
        await post('/v1/render.background', { json: { input_refs: refs } }),
        400,
        'invalid_request',
        'too_many_files',
        'input_refs',
      );
    });
  });
});

describe('expiry of unused refs', () => {
  it('a ref is usable until uploadRefTtlSeconds after its creation, then upload_not_found', async () => {
    const ttl = svc.services.config.uploadRefTtlSeconds;
    const early = await uploadFile(svc.baseUrl, key, 'image/jpeg', jpeg('early'), 'early.jpg');
    const late = await uploadFile(svc.baseUrl, key, 'image/jpeg', jpeg('late'), 'late.jpg');
    svc.clock.advance((ttl - 60) * 1000);
    expect((await post('/v1/plate.read', { json: { input_ref: early } })).status).toBe(202);
    svc.clock.advance(61 * 1000);
    await expectNothingCharged(async () => {
      const response = await post('/v1/plate.read', { json: { input_ref: late } });
      expectEnvelope(response, 400, 'invalid_request', 'upload_not_found', 'input_ref');
    });
    // a new upload made now is fine again
    const fresh = await uploadFile(svc.baseUrl, key, 'image/jpeg', jpeg('after'), 'after.jpg');
    expect((await post('/v1/plate.read', { json: { input_ref: fresh } })).status).toBe(202);
  });
});
