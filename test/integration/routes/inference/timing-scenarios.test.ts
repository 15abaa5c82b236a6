import { afterAll, describe, expect, it } from 'vitest';
import { CATALOGUE, ENDPOINT_SLUGS } from '../../../../lambdas/domain/catalogue/catalogue.js';
import { INFERENCE_SLUGS, submit } from '../../../support/endpoint-calls.js';
import { type ApiResponse, call, eventually } from '../../../support/http.js';
import { ledgerSum } from '../../../support/ledger.js';
import { allPages } from '../../../support/management.js';
import { sharedTestService } from '../../../support/service.js';
import { uploadFile } from '../../../support/uploads.js';

// `expire` and `wait_timeout` (docs/internals/jobs-and-credits.md, "Test scenarios"): the queue timeout and the
// wait ceiling reached in seconds. The ceiling is shortened to 1 s so the wait_timeout job settles 6 s in.
const WAIT_CEILING_MS = 1000;

const svc = sharedTestService({ config: { waitCeilingMs: WAIT_CEILING_MS } });
afterAll(async () => {
  const orgId = svc.org.organization.id;
  expect(await ledgerSum(svc.services, orgId, false)).toBe(await svc.services.accounts.getBalance(orgId, false));
});

/** Reads the job once a second (the polling limit) until `done` holds. */
function jobWhen(id: string, done: (job: any) => boolean, timeoutMs: number): Promise<ApiResponse> {
  return eventually(
    async () => {
      const job = await call(svc.baseUrl, 'GET', `/v1/jobs/${id}`, { key: svc.org.testKey });
      expect(job.status).toBe(200);
      return done(job.body) ? job : null;
    },
    timeoutMs,
    1000,
  );
}

async function submitInspection(headers: Record<string, string>): Promise<ApiResponse> {
  const refs = await Promise.all([
    uploadFile(svc.baseUrl, svc.org.testKey, 'video/mp4', Buffer.alloc(4000, 'walk'), 'walk.mp4'),
    uploadFile(svc.baseUrl, svc.org.testKey, 'image/jpeg', Buffer.alloc(3000, 'photo'), 'photo.jpg'),
  ]);
  return call(svc.baseUrl, 'POST', '/v1/inspections', { key: svc.org.testKey, json: { input_refs: refs }, headers });
}

describe('the catalogue offers them wherever they can happen', () => {
  it('expire on every endpoint, wait_timeout on exactly the endpoints that accept wait', async () => {
    const catalogue = await call(svc.baseUrl, 'GET', '/v1/endpoints', { key: svc.org.testKey });
    expect(catalogue.body.data).toHaveLength(ENDPOINT_SLUGS.length);
    for (const entry of catalogue.body.data as { slug: string; accepts_wait: boolean; scenarios: string[] }[]) {
      expect(entry.scenarios, entry.slug).toContain('expire');
      expect(entry.scenarios.includes('wait_timeout'), entry.slug).toBe(entry.accepts_wait);
    }
  });

  it('an endpoint without wait refuses wait_timeout', async () => {
    const refused = await call(svc.baseUrl, 'POST', '/v1/render.360', {
      key: svc.org.testKey,
      json: {},
      headers: { 'X-Svc-Test-Scenario': 'wait_timeout' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'test_scenario_not_supported', param: 'X-Svc-Test-Scenario' });
  });
});

describe.concurrent('expire: the job stays queued and expires within 5 s', () => {
  it.each([...INFERENCE_SLUGS, 'inspections' as const])('%s', async (slug) => {
    const headers = { 'X-Svc-Test-Scenario': 'expire' };
    // a wait=true call on a wait-capable endpoint simply answers 202 at the (1 s) ceiling
    const created =
      slug === 'inspections'
        ? await submitInspection(headers)
        : await submit(svc.baseUrl, slug, svc.org.testKey, headers, `${slug}-expire`);
    expect(created.status).toBe(202);
    expect(created.body).toMatchObject({ status: 'queued', test_scenario: 'expire' });
    const reserved = created.body.credits.reserved as number;
    expect(reserved).toBeGreaterThan(0);

    const expired = await jobWhen(created.body.id, (job) => job.status !== 'queued', 15_000);
    // within 5 s of its creation, by the service's own timestamps (whole seconds)
    expect(expired.body.completed_at - expired.body.created).toBeLessThanOrEqual(5);
    expect(expired.body).toMatchObject({
      status: 'expired',
      result: null,
      error: { type: 'processing_error', code: 'job_expired' },
      credits: { reserved, charged: 0 },
    });

    // the whole reservation is released, and job.failed announces the expiry
    const entries = (await allPages(svc, 'admin', '/mgmt/v1/ledger?livemode=false')).filter(
      (entry) => entry.job_id === created.body.id,
    );
    expect(entries.map((entry) => [entry.kind, entry.amount]).sort()).toEqual([
      ['release', reserved],
      ['reserve', -reserved],
    ]);
    const events = await allPages(svc, 'admin', `/mgmt/v1/events?job_id=${created.body.id}`);
    expect(events.map((event) => event.type)).toEqual(['job.failed']);
    expect(events[0].data.job).toMatchObject({
      id: created.body.id,
      status: 'expired',
      error: { code: 'job_expired' },
      credits: { charged: 0 },
    });
  });
});

describe('wait_timeout: wait=true answers 202 at the ceiling, then the job settles', () => {
  // the hold is the admission's, the same for every endpoint: one endpoint per kind of input proves it
  // (the catalogue test above proves every wait-capable endpoint offers it)
  const WAITING = [
    ...new Map(
      INFERENCE_SLUGS.filter((slug) => CATALOGUE[slug].acceptsWait).map(
        (slug) => [CATALOGUE[slug].inputKind, slug] as const,
      ),
    ).values(),
  ];

  it.concurrent.each(WAITING)('%s', async (slug) => {
    const started = Date.now();
    const answered = await submit(
      svc.baseUrl,
      slug,
      svc.org.testKey,
      { 'X-Svc-Test-Scenario': 'wait_timeout' },
      `${slug}-wait-timeout`,
    );
    const heldFor = Date.now() - started;
    expect(answered.status).toBe(202);
    expect(answered.body).toMatchObject({ status: 'queued', test_scenario: 'wait_timeout', result: null });
    expect(heldFor).toBeGreaterThanOrEqual(WAIT_CEILING_MS - 50);

    const settled = await jobWhen(answered.body.id, (job) => job.status !== 'queued', 15_000);
    expect(settled.body).toMatchObject({ status: 'succeeded', error: null, test_scenario: 'wait_timeout' });
    // 5 s after the ceiling, never before it
    expect(Date.now() - started).toBeGreaterThanOrEqual(WAIT_CEILING_MS + 5000 - 1000);
    expect(settled.body.credits.charged).toBeGreaterThan(0);
  });

  it('the job can still be canceled while it is held, like any queued job', async () => {
    const answered = await submit(
      svc.baseUrl,
      'plate.read',
      svc.org.testKey,
      { 'X-Svc-Test-Scenario': 'wait_timeout' },
      'cancel-wait-timeout',
    );
    expect(answered.status).toBe(202);
    const canceled = await call(svc.baseUrl, 'POST', `/v1/jobs/${answered.body.id}/cancel`, { key: svc.org.testKey });
    expect(canceled.status).toBe(200);
    expect(canceled.body).toMatchObject({ status: 'canceled', credits: { charged: 0 } });
  });
});
