import { describe, expect, it } from 'vitest';
import { CATALOGUE, ENDPOINT_SLUGS, reservationFor } from '../../../../lambdas/domain/catalogue/catalogue.js';
import { inspectionPrice } from '../../../../lambdas/domain/inspections/pricing.js';
import { callPrice } from '../../../../lambdas/domain/jobs/call-price.js';

// The one price rule the admission reserves by and a quote shows (docs/internals/quotes.md).

const image = { content_type: 'image/jpeg' };

describe('callPrice', () => {
  it('reserves the catalogue reservation for the inputs of every endpoint but inspections', () => {
    for (const slug of ENDPOINT_SLUGS.filter((s) => s !== 'inspections')) {
      const endpoint = CATALOGUE[slug];
      for (const count of [0, 1, Math.min(3, endpoint.maxAssets)])
        expect(
          callPrice(
            endpoint,
            Array.from({ length: count }, () => image),
          ).reserve,
          `${slug} × ${count}`,
        ).toBe(reservationFor(endpoint, count));
    }
  });

  it('reserves an inspection’s blended price less its excluded stages', () => {
    expect(callPrice(CATALOGUE.inspections, [image], ['price_repair']).reserve).toBe(inspectionPrice(['price_repair']));
    expect(callPrice(CATALOGUE.inspections, [image], ['price_repair']).reserve).toBeLessThan(
      callPrice(CATALOGUE.inspections, [image]).reserve,
    );
  });

  it('estimates per-second inputs by their started seconds, capped at the clip reserve, and unknown durations at the reserve', () => {
    const engine = CATALOGUE['engine.detect'];
    expect(callPrice(engine, [{ content_type: 'audio/wav', duration_seconds: 7.01 }])).toMatchObject({
      units: 8,
      estimate: 8 * engine.price,
    });
    expect(callPrice(engine, [{ content_type: 'audio/wav', duration_seconds: 10_000 }])).toMatchObject({
      units: engine.reserveUnitsPerAsset,
    });
    const unknown = callPrice(engine, [{ content_type: 'audio/wav' }]);
    expect(unknown.estimate).toBe(unknown.reserve);
  });

  it('estimates per-image calls by their image count and per-request calls at the reserve', () => {
    expect(callPrice(CATALOGUE['render.background'], [image, image, image])).toMatchObject({
      units: 3,
      estimate: 3 * CATALOGUE['render.background'].price,
    });
    const vehicle = callPrice(CATALOGUE['pricing.vehicle'], []);
    expect(vehicle).toMatchObject({ metering: 'per_request', units: 1, estimate: vehicle.reserve });
  });
});
