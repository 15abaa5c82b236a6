import { describe, expect, it } from 'vitest';
import { hashSecret } from '../../../../lambdas/domain/access/api-keys.js';
import { PLAN_RATE_LIMITS, quoteBucket, windowOf } from '../../../../lambdas/domain/access/rate-limits.js';
import { CATALOGUE, type EndpointSlug } from '../../../../lambdas/domain/catalogue/catalogue.js';
import { INFERENCE_SLUGS } from '../../../support/endpoint-calls.js';
import { type ApiResponse, call, expectEnvelope, formWith, imageFile } from '../../../support/http.js';
import { sideEffects } from '../../../support/invariants.js';
import { sharedTestService, startTestService } from '../../../support/service.js';
import { uploadFile } from '../../../support/uploads.js';

// `POST /v1/{slug}/quote` answers what the call would reserve, byte for byte the admission's rule,
// answers a bad body as the call does, and writes nothing (docs/internals/quotes.md).
const svc = sharedTestService({ plan: 'free', workerPaused: true });

const key = () => svc.org.testKey;
const quote = (slug: EndpointSlug, json: unknown, headers: Record<string, string> = {}) =>
  call(svc.baseUrl, 'POST', `/v1/${slug}/quote`, { key: key(), json, headers });

const JSON_PARAMS: Partial<Record<EndpointSlug, Record<string, unknown>>> = {
  'pricing.vehicle': { vin: '1HGCM82633A004352', mileage_km: 84000 },
  'pricing.repair': { damages: [{ part: 'front_bumper', type: 'dent' }], parts: [{ part: 'hood', action: 'repair' }] },
};

/** Assets of a call: as many as the endpoint needs (a few more where it takes many), of its media type. */
function assetsOf(slug: EndpointSlug, seed: string): Array<{ type: string; bytes: Buffer; name: string }> {
  const endpoint = CATALOGUE[slug];
  const count = Math.max(endpoint.minAssets, endpoint.maxAssets > 1 ? 3 : 1);
  const type =
    endpoint.inputKind === 'video' ? 'video/mp4' : endpoint.inputKind === 'audio' ? 'audio/wav' : 'image/jpeg';
  return Array.from({ length: count }, (_, i) => {
    const bytes = Buffer.alloc(3000 + i, `${seed}${i}`);
    if (type === 'image/jpeg') [bytes[0], bytes[1]] = [0xff, 0xd8];
    return { type, bytes, name: `asset-${i}` };
  });
}

function refsBody(slug: EndpointSlug, refs: string[]): Record<string, unknown> {
  return CATALOGUE[slug].maxAssets > 1 ? { input_refs: refs } : { input_ref: refs[0] };
}

async function uploads(slug: EndpointSlug, seed: string): Promise<string[]> {
  return Promise.all(
    assetsOf(slug, seed).map((asset) => uploadFile(svc.baseUrl, key(), asset.type, asset.bytes, asset.name)),
  );
}

function expectQuote(response: ApiResponse, slug: EndpointSlug): { reserve: number; estimate: number } {
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  expect(response.body).toMatchObject({
    object: 'quote',
    endpoint: slug,
    livemode: false,
    metering: CATALOGUE[slug].metering,
    affordable: true,
    reason: null,
  });
  expect(response.body.credits.estimate).toBeLessThanOrEqual(response.body.credits.reserve);
  return response.body.credits;
}

/** The call's reservation, as its job shows it. */
function reservedBy(response: ApiResponse): number {
  expect(response.status, JSON.stringify(response.body)).toBe(202);
  return response.body.credits.reserved;
}

describe('a quote equals the following call’s reservation', () => {
  for (const slug of INFERENCE_SLUGS) {
    const endpoint = CATALOGUE[slug];

    if (!endpoint.fileField) {
      it(`${slug}: parameters only`, async () => {
        const body = JSON_PARAMS[slug] ?? {};
        const quoted = expectQuote(await quote(slug, body), slug);
        expect(quoted.reserve).toBe(
          reservedBy(await call(svc.baseUrl, 'POST', `/v1/${slug}`, { key: key(), json: body })),
        );
      });
      continue;
    }

    it(`${slug}: upload references`, async () => {
      const refs = await uploads(slug, `${slug}-refs`);
      const quoted = expectQuote(await quote(slug, refsBody(slug, refs)), slug);
      expect(quoted.reserve).toBe(
        reservedBy(await call(svc.baseUrl, 'POST', `/v1/${slug}`, { key: key(), json: refsBody(slug, refs) })),
      );
    });

    it(`${slug}: described inputs, then the call ${endpoint.requiresJsonEncoding ? 'with upload references' : 'as multipart'}`, async () => {
      const assets = assetsOf(slug, `${slug}-described`);
      const described = assets.map((asset) => ({ content_type: asset.type, size_bytes: asset.bytes.length }));
      const quoted = expectQuote(await quote(slug, { inputs: described }), slug);
      const sent = endpoint.requiresJsonEncoding
        ? await call(svc.baseUrl, 'POST', `/v1/${slug}`, {
            key: key(),
            json: refsBody(slug, await uploads(slug, `${slug}-described`)),
          })
        : await call(svc.baseUrl, 'POST', `/v1/${slug}`, {
            key: key(),
            form: formWith(
              endpoint.fileField!,
              assets.map((asset) => new Blob([asset.bytes], { type: asset.type })),
            ),
          });
      expect(quoted.reserve).toBe(reservedBy(sent));
    });
  }

  it('inspections: upload references, described inputs and excluded stages', async () => {
    const video = await uploadFile(
      svc.baseUrl,
      key(),
      'video/mp4',
      Buffer.alloc(4096, 'quote-video'),
      'walkaround.mp4',
    );
    const photos = await Promise.all(
      [0, 1].map((i) =>
        uploadFile(svc.baseUrl, key(), 'image/jpeg', Buffer.alloc(2048, `quote-photo-${i}`), `photo-${i}.jpg`),
      ),
    );
    const excluded = { stages: { exclude: ['price_repair', 'render_listing'] } };
    const described = [
      { content_type: 'video/mp4', size_bytes: 4096, duration_seconds: 42 },
      { content_type: 'image/jpeg', size_bytes: 2048 },
      { content_type: 'image/jpeg', size_bytes: 2048 },
    ];
    const byRefs = expectQuote(
      await quote('inspections', { input_refs: [video, ...photos], ...excluded }),
      'inspections',
    );
    expect(expectQuote(await quote('inspections', { inputs: described, ...excluded }), 'inspections')).toEqual(byRefs);
    const full = expectQuote(await quote('inspections', { inputs: described }), 'inspections');
    expect(full.reserve).toBeGreaterThan(byRefs.reserve);
    expect(byRefs.reserve).toBe(
      reservedBy(
        await call(svc.baseUrl, 'POST', '/v1/inspections', {
          key: key(),
          json: { input_refs: [video, ...photos], ...excluded },
        }),
      ),
    );
  });

  it('per-second endpoints reserve the longest clip and estimate the described duration', async () => {
    const response = await quote('engine.detect', {
      inputs: [{ content_type: 'audio/wav', size_bytes: 3000, duration_seconds: 12.2 }],
    });
    const engine = CATALOGUE['engine.detect'];
    expect(response.body).toMatchObject({
      units: 13,
      credits: { reserve: engine.price * engine.reserveUnitsPerAsset, estimate: engine.price * 13 },
    });
  });
});

describe('a quote refuses a bad body as the call does', () => {
  const cases: Array<{ name: string; slug: EndpointSlug; json: unknown; query?: string }> = [
    { name: 'no input', slug: 'plate.read', json: {} },
    { name: 'a malformed upload reference', slug: 'plate.read', json: { input_ref: 'nope' } },
    { name: 'an unknown upload', slug: 'plate.read', json: { input_ref: 'upl_doesnotexist' } },
    { name: 'an unknown parameter', slug: 'plate.read', json: { input_ref: 'upl_doesnotexist', colour: 'red' } },
    {
      name: 'too many references',
      slug: 'render.background',
      json: { input_refs: Array.from({ length: 31 }, (_, i) => `upl_x${i}`) },
    },
    { name: 'references to a one-input endpoint', slug: 'damage.detect', json: { input_refs: ['upl_abc'] } },
    { name: 'a missing parameter', slug: 'pricing.vehicle', json: { mileage_km: 84000 } },
    { name: 'an invalid parameter', slug: 'pricing.vehicle', json: { vin: 'short', mileage_km: 84000 } },
    {
      name: 'a file input on a parameters-only endpoint',
      slug: 'pricing.vehicle',
      json: { ...JSON_PARAMS['pricing.vehicle'], input_ref: 'upl_abc' },
    },
    { name: 'an unknown stage', slug: 'inspections', json: { input_refs: ['upl_abc'], stages: { exclude: ['nap'] } } },
    { name: 'an inspection without inputs', slug: 'inspections', json: {} },
    { name: 'wait on an endpoint without it', slug: 'video.onboard', json: {}, query: '?wait=true' },
    { name: 'a bad wait', slug: 'plate.read', json: {}, query: '?wait=maybe' },
  ];
  for (const { name, slug, json, query = '' } of cases) {
    it(`${slug}: ${name}`, async () => {
      const before = await sideEffects(svc.services, svc.org.organization.id);
      const byCall = await call(svc.baseUrl, 'POST', `/v1/${slug}${query}`, { key: key(), json });
      const byQuote = await call(svc.baseUrl, 'POST', `/v1/${slug}/quote${query}`, { key: key(), json });
      expect(byCall.status).toBeGreaterThanOrEqual(400);
      const { type, code, param } = byCall.body.error;
      expectEnvelope(byQuote, byCall.status, type, code, param);
      expect(await sideEffects(svc.services, svc.org.organization.id)).toEqual(before);
    });
  }

  it('described inputs are checked as files: a media type the endpoint does not take, too many, or beside references', async () => {
    expectEnvelope(
      await quote('plate.read', { inputs: [{ content_type: 'audio/wav', size_bytes: 10 }] }),
      400,
      'invalid_request',
      'parameter_invalid',
      'inputs.0.content_type',
    );
    expectEnvelope(
      await quote('plate.read', { inputs: [{ content_type: 'image/jpeg', size_bytes: 0 }] }),
      400,
      'invalid_request',
      'parameter_invalid',
      'inputs.0.size_bytes',
    );
    const two = Array.from({ length: 2 }, () => ({ content_type: 'image/jpeg', size_bytes: 10 }));
    expectEnvelope(await quote('plate.read', { inputs: two }), 400, 'invalid_request', 'too_many_files', 'inputs');
    expectEnvelope(
      await quote('plate.read', { inputs: two.slice(1), input_ref: 'upl_abc' }),
      400,
      'invalid_request',
      'parameter_invalid',
      'inputs',
    );
    expectEnvelope(await quote('inspections', { inputs: two }), 400, 'invalid_request', 'missing_input', 'inputs');
  });

  it('multipart is refused: a quote never carries the bytes', async () => {
    expectEnvelope(
      await call(svc.baseUrl, 'POST', '/v1/plate.read/quote', { key: key(), form: formWith('image', [imageFile()]) }),
      400,
      'invalid_request',
      'unsupported_media_type',
      'Content-Type',
    );
  });
});

describe('a quote that is not affordable says why', () => {
  it('names insufficient_credits when the balance cannot cover the reserve, the code the call then gets', async () => {
    const poor = await startTestService({ startingCredits: { live: 1, test: 1 } });
    try {
      const body = JSON_PARAMS['pricing.vehicle'];
      const quoted = await call(poor.baseUrl, 'POST', '/v1/pricing.vehicle/quote', {
        key: poor.org.testKey,
        json: body,
      });
      expect(quoted.status, JSON.stringify(quoted.body)).toBe(200);
      expect(quoted.body).toMatchObject({ balance: 1, affordable: false, reason: 'insufficient_credits' });
      expect(quoted.body.credits.reserve).toBeGreaterThan(1);
      const refused = await call(poor.baseUrl, 'POST', '/v1/pricing.vehicle', { key: poor.org.testKey, json: body });
      expectEnvelope(refused, 402, 'insufficient_credits', quoted.body.reason);
    } finally {
      await poor.stop();
    }
  });
});

describe('a quote writes nothing and spends its own window', () => {
  it('leaves balance, ledger, jobs and objects as they were, and stores no Idempotency-Key', async () => {
    const refs = await uploads('render.background', 'nothing-written');
    const before = await sideEffects(svc.services, svc.org.organization.id);
    const headers = { 'Idempotency-Key': 'quote-key-0001' };
    const first = await quote('render.background', { input_refs: refs }, headers);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.headers.get('Idempotent-Replayed')).toBeNull();
    expect(first.body.balance).toBe(before.balance);
    expect(await sideEffects(svc.services, svc.org.organization.id)).toEqual(before);
    // the key is free for the call itself, and the references were not consumed
    const admitted = await call(svc.baseUrl, 'POST', '/v1/render.background', {
      key: key(),
      json: { input_refs: refs },
      headers,
    });
    expect(admitted.status).toBe(202);
    expect(admitted.headers.get('Idempotent-Replayed')).toBeNull();
  });

  it('counts in a window of its own per key, with the usual headers, and answers 429 when it is spent', async () => {
    const now = svc.clock.nowMs();
    svc.clock.advance(60_000 - (now % 60_000) + 100);
    const remaining = async () => {
      const admitted = await call(svc.baseUrl, 'POST', '/v1/pricing.vehicle', {
        key: key(),
        json: JSON_PARAMS['pricing.vehicle'],
      });
      expect(admitted.headers.get('RateLimit-Limit')).toBe(String(PLAN_RATE_LIMITS.free!.inferencePerMinute));
      return Number(admitted.headers.get('RateLimit-Remaining'));
    };
    const before = await remaining();
    for (const expected of [1, 2, 3]) {
      const quoted = await quote('pricing.vehicle', JSON_PARAMS['pricing.vehicle']);
      expect(quoted.status).toBe(200);
      expect(quoted.headers.get('RateLimit-Limit')).toBe(String(PLAN_RATE_LIMITS.free!.otherPerMinute));
      expect(quoted.headers.get('RateLimit-Remaining')).toBe(String(PLAN_RATE_LIMITS.free!.otherPerMinute - expected));
    }
    // the call's own window counts the calls alone, not the quotes between them
    expect(await remaining()).toBe(before - 1);

    const credential = (await svc.services.accounts.findCredential(hashSecret(key())))!;
    const window = windowOf(svc.clock, {
      orgId: svc.org.organization.id,
      livemode: false,
      plan: 'free',
      bucket: quoteBucket(credential.key.id),
    });
    svc.services.rateLimiter.markExhausted(window);
    const refused = await quote('pricing.vehicle', JSON_PARAMS['pricing.vehicle']);
    expectEnvelope(refused, 429, 'rate_limit', 'rate_limit_exceeded');
    expect(refused.headers.get('Retry-After')).not.toBeNull();
    // the call is still admitted: its window is not the quotes'
    expect(
      (await call(svc.baseUrl, 'POST', '/v1/pricing.vehicle', { key: key(), json: JSON_PARAMS['pricing.vehicle'] }))
        .status,
    ).toBe(202);
  });
});
