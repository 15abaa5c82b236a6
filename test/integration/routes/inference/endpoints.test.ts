import { describe, expect, it } from 'vitest';
import { CATALOGUE, ENDPOINT_SLUGS } from '../../../../lambdas/domain/catalogue/catalogue.js';
import { JobSchema } from '../../../../lambdas/schemas/records.js';
import { resultSchemas } from '../../../../lambdas/schemas/results/index.js';
import { INFERENCE_SLUGS, settled, submit } from '../../../support/endpoint-calls.js';
import { call } from '../../../support/http.js';
import { sharedTestService } from '../../../support/service.js';

const svc = sharedTestService();

describe('every inference endpoint in test mode', () => {
  it.each(INFERENCE_SLUGS)('%s reaches succeeded with a result that passes its schema', async (slug) => {
    const created = await submit(svc.baseUrl, slug, svc.org.testKey);
    expect([200, 202]).toContain(created.status);
    const job = created.status === 200 ? created : await settled(svc.baseUrl, svc.org.testKey, created.body.id);
    expect(job.body.status).toBe('succeeded');
    expect(JobSchema.safeParse(job.body).success).toBe(true);
    const parsed = resultSchemas[slug].safeParse(job.body.result);
    expect(parsed.success, JSON.stringify(parsed.error?.issues?.slice(0, 3))).toBe(true);
    expect(job.body.credits.charged).toBeGreaterThan(0);
    expect(job.body.credits.charged).toBeLessThanOrEqual(job.body.credits.reserved);
    expect(job.body.model_version).toBe(`${CATALOGUE[slug].model}@${CATALOGUE[slug].modelReleaseDate}-fixture`);
  });

  it('render.background returns one result per input, in input order', async () => {
    const created = await submit(svc.baseUrl, 'render.background', svc.org.testKey);
    expect(created.status).toBe(200);
    const results =
      (created.body.result as { images?: Array<{ index: number; filename: string | null }> }).images ?? [];
    expect(results.map((r) => r.index)).toEqual([0, 1, 2]);
    expect(results.map((r) => r.filename)).toEqual(['asset-0.jpg', 'asset-1.jpg', 'asset-2.jpg']);
    expect(created.body.credits).toEqual({ reserved: 30, charged: 30 });
  });

  it('the same input gives the same result', async () => {
    const a = await submit(svc.baseUrl, 'vehicle.identify', svc.org.testKey);
    const b = await submit(svc.baseUrl, 'vehicle.identify', svc.org.testKey);
    expect(a.body.result).toEqual(b.body.result);
  });

  it('per-second endpoints reserve the longest clip and release the unused seconds', async () => {
    const created = await submit(svc.baseUrl, 'engine.detect', svc.org.testKey);
    expect(created.body.credits.reserved).toBe(30);
    expect(created.body.credits.charged).toBeLessThanOrEqual(30);
  });
});

describe('the catalogue', () => {
  it('lists every endpoint with price, metering, input kind, wait support and scenarios', async () => {
    const response = await call(svc.baseUrl, 'GET', '/v1/endpoints', { key: svc.org.testKey });
    expect(response.status).toBe(200);
    expect(response.body.object).toBe('list');
    expect(response.body.data.map((e: { slug: string }) => e.slug)).toEqual([...ENDPOINT_SLUGS]);
    const plate = response.body.data.find((e: { slug: string }) => e.slug === 'plate.read');
    expect(plate).toEqual({
      slug: 'plate.read',
      family: 'A',
      name: 'Licence plate reading',
      availability: 'available',
      metering: 'per_image',
      price: 2,
      currency: 'usd',
      // `price` is credits, not dollars: the added field says so in words
      price_display: '2 credits ($0.02) per image',
      input_kind: 'image',
      accepts_wait: true,
      queue_timeout_seconds: 900,
      scenarios: [...CATALOGUE['plate.read'].scenarios],
      encodings: ['multipart', 'json'],
    });
    expect(response.body.data.find((e: { slug: string }) => e.slug === 'inspections').availability).toBe('available');
    expect(response.body.data.find((e: { slug: string }) => e.slug === 'engine.detect').price_display).toBe(
      '1 credit ($0.01) per second',
    );
    for (const slug of ['video.onboard', 'render.360', 'render.video', 'inspections']) {
      expect(response.body.data.find((e: { slug: string }) => e.slug === slug).accepts_wait).toBe(false);
    }
    // the endpoints that take uploads only say so, as does pricing (no file at all)
    const jsonOnly = response.body.data
      .filter((e: { encodings: string[] }) => e.encodings.join() === 'json')
      .map((e: { slug: string }) => e.slug);
    expect(jsonOnly).toEqual([
      'video.onboard',
      'pricing.vehicle',
      'pricing.repair',
      'render.360',
      'render.video',
      'viewer.hotspots',
      'inspections',
    ]);
  });
});
