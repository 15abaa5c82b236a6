import { describe, expect, it } from 'vitest';
import { ENDPOINT_SLUGS } from '../../../../lambdas/domain/catalogue/catalogue.js';
import { REFERENCE_PLANE_ENDPOINTS } from '../../../../lambdas/domain/catalogue/plane-declaration.js';
import { createBatchOf, vin } from '../../../support/batches.js';
import { call, expectEnvelope, formWith, imageFile } from '../../../support/http.js';
import { ledgerSum } from '../../../support/ledger.js';
import { sharedTestService, type TestService } from '../../../support/service.js';

// The catalogue's `availability` is the caller's mode's truth (docs/internals/inference-plane.md, "What a plane
// declares"): a test key may call every endpoint; a live key only what the stack's plane computes. A
// live call of anything else is refused at admission, before a credit moves or a job exists.

async function availabilityFor(svc: TestService, key: string): Promise<Record<string, string>> {
  const response = await call(svc.baseUrl, 'GET', '/v1/endpoints', { key });
  expect(response.status).toBe(200);
  return Object.fromEntries(
    response.body.data.map((entry: { slug: string; availability: string }) => [entry.slug, entry.availability]),
  );
}

/** What a refusal must leave untouched: the live balance, the live ledger and the live jobs. */
async function liveState(svc: TestService) {
  const orgId = svc.org.organization.id;
  const jobs = await call(svc.baseUrl, 'GET', '/v1/jobs', { key: svc.org.liveKey });
  return {
    balance: await svc.services.accounts.getBalance(orgId, true),
    ledger: await ledgerSum(svc.services, orgId, true),
    jobs: jobs.body.data.map((job: { id: string }) => job.id),
  };
}

describe('on a stack whose plane is the reference plane', () => {
  const svc = sharedTestService({ livePlane: 'reference' });

  it('a test key sees every endpoint available', async () => {
    const availability = await availabilityFor(svc, svc.org.testKey);
    expect(Object.keys(availability)).toEqual([...ENDPOINT_SLUGS]);
    expect(new Set(Object.values(availability))).toEqual(new Set(['available']));
  });

  it('a live key sees available exactly what the plane declares, every other endpoint planned', async () => {
    const availability = await availabilityFor(svc, svc.org.liveKey);
    for (const slug of ENDPOINT_SLUGS)
      expect(availability[slug], slug).toBe(
        (REFERENCE_PLANE_ENDPOINTS as readonly string[]).includes(slug) ? 'available' : 'planned',
      );
  });

  it('a live call of a planned endpoint is refused at admission: nothing reserved, charged or queued', async () => {
    const before = await liveState(svc);
    const refused = await call(svc.baseUrl, 'POST', '/v1/damage.detect', {
      key: svc.org.liveKey,
      form: formWith('image', [imageFile()]),
      headers: { 'Idempotency-Key': 'planned-damage-1' },
    });
    expectEnvelope(refused, 400, 'invalid_request', 'endpoint_not_available', null);
    expect(refused.body.error.message).toContain('damage.detect');
    const json = await call(svc.baseUrl, 'POST', '/v1/pricing.vehicle', {
      key: svc.org.liveKey,
      json: { vin: vin(1), mileage_km: 42_000, country: 'DE' },
    });
    expectEnvelope(json, 400, 'invalid_request', 'endpoint_not_available', null);
    expect(await liveState(svc)).toEqual(before);
  });

  it('the same call with a test key is admitted', async () => {
    const admitted = await call(svc.baseUrl, 'POST', '/v1/damage.detect', {
      key: svc.org.testKey,
      form: formWith('image', [imageFile()]),
    });
    expect(admitted.status).toBe(202);
  });

  it('a live quote of a planned endpoint says the call would be refused', async () => {
    const quote = await call(svc.baseUrl, 'POST', '/v1/damage.detect/quote', {
      key: svc.org.liveKey,
      json: { inputs: [{ content_type: 'image/jpeg', size_bytes: 2048 }] },
    });
    expectEnvelope(quote, 400, 'invalid_request', 'endpoint_not_available', null);
    const declared = await call(svc.baseUrl, 'POST', '/v1/plate.read/quote', {
      key: svc.org.liveKey,
      json: { inputs: [{ content_type: 'image/jpeg', size_bytes: 2048 }] },
    });
    expect(declared.status).toBe(200);
  });

  it('a live batch of a planned endpoint is refused before any line is admitted', async () => {
    const before = await liveState(svc);
    const batch = await createBatchOf(svc.baseUrl, svc.org.liveKey, 'pricing.vehicle', [
      { params: { vin: vin(2), mileage_km: 1000, country: 'DE' } },
    ]);
    expectEnvelope(batch, 400, 'invalid_request', 'endpoint_not_available', 'endpoint');
    expect(await liveState(svc)).toEqual(before);
  });
});

describe('on a stack without an inference plane', () => {
  const svc = sharedTestService({ livePlane: 'none' });

  it('every endpoint is planned for live keys, and a live call is refused without moving a credit', async () => {
    const availability = await availabilityFor(svc, svc.org.liveKey);
    expect(new Set(Object.values(availability))).toEqual(new Set(['planned']));
    const before = await liveState(svc);
    const refused = await call(svc.baseUrl, 'POST', '/v1/plate.read', {
      key: svc.org.liveKey,
      form: formWith('image', [imageFile()]),
    });
    expectEnvelope(refused, 400, 'invalid_request', 'endpoint_not_available', null);
    expect(await liveState(svc)).toEqual(before);
  });
});
