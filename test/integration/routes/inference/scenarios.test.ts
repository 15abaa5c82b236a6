import { afterAll, describe, expect, it } from 'vitest';
import { CATALOGUE, type Scenario, TIMING_SCENARIOS } from '../../../../lambdas/domain/catalogue/catalogue.js';
import { INSPECTION_FAILURE_SCENARIOS } from '../../../../lambdas/domain/catalogue/stage-names.js';
import { resultSchemas } from '../../../../lambdas/schemas/results/index.js';
import { INFERENCE_SLUGS, settled, submit } from '../../../support/endpoint-calls.js';
import { call, expectEnvelope } from '../../../support/http.js';
import { ledgerSum } from '../../../support/ledger.js';
import { sharedTestService } from '../../../support/service.js';

const svc = sharedTestService({ config: { slowScenarioSeconds: 1 } });
afterAll(async () => {
  // every scenario's credits are accounted for
  const orgId = svc.org.organization.id;
  expect(await ledgerSum(svc.services, orgId, false)).toBe(await svc.services.accounts.getBalance(orgId, false));
});

const FAILURES: Partial<Record<Scenario, { type: string; code: string }>> = {
  model_error: { type: 'processing_error', code: 'model_inference_failed' },
  unreadable_input: { type: 'invalid_request', code: 'unreadable_input' },
  upstream_timeout: { type: 'processing_error', code: 'upstream_timeout' },
};

// `expire` and `wait_timeout` end otherwise: test/integration/routes/inference/timing-scenarios.test.ts
const cases = INFERENCE_SLUGS.flatMap((slug) =>
  CATALOGUE[slug].scenarios
    .filter((scenario) => !(TIMING_SCENARIOS as readonly string[]).includes(scenario))
    .map((scenario) => [slug, scenario] as const),
);

describe.concurrent('X-Svc-Test-Scenario on every endpoint that supports it', () => {
  it.each(cases)('%s with %s', async (slug, scenario) => {
    const started = Date.now();
    const created = await submit(
      svc.baseUrl,
      slug,
      svc.org.testKey,
      { 'X-Svc-Test-Scenario': scenario },
      `${slug}-${scenario}`,
    );
    if (scenario === 'insufficient_credits') {
      expectEnvelope(created, 402, 'insufficient_credits', 'insufficient_credits');
      return;
    }
    expect([200, 202]).toContain(created.status);
    expect(created.body.test_scenario).toBe(scenario);
    const job =
      created.body.status === 'queued' || created.body.status === 'processing'
        ? await settled(svc.baseUrl, svc.org.testKey, created.body.id)
        : created;
    expect(job.body.test_scenario).toBe(scenario);
    const failure = FAILURES[scenario];
    if (failure) {
      expect(job.body).toMatchObject({ status: 'failed', result: null, error: failure, credits: { charged: 0 } });
      return;
    }
    expect(job.body.status).toBe('succeeded');
    expect(job.body.error).toBeNull();
    const parsed = resultSchemas[slug].safeParse(job.body.result);
    expect(parsed.success, JSON.stringify(parsed.error?.issues?.slice(0, 3))).toBe(true);
    if (scenario === 'slow') expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
  });
});

// `fail_at_<stage>` fails one stage of an inspection; a single model call has no stages, so
// accepting it there would ignore it silently (docs/internals/jobs-and-credits.md: rejected, not ignored)
describe('fail_at_<stage> is an inspections scenario only', () => {
  it.each(
    INFERENCE_SLUGS.map(
      (slug, i) => [slug, INSPECTION_FAILURE_SCENARIOS[i % INSPECTION_FAILURE_SCENARIOS.length]!] as const,
    ),
  )('%s refuses %s', async (slug, scenario) => {
    const response = await call(svc.baseUrl, 'POST', `/v1/${slug}`, {
      key: svc.org.testKey,
      json: {},
      headers: { 'X-Svc-Test-Scenario': scenario },
    });
    expectEnvelope(response, 400, 'invalid_request', 'test_scenario_not_supported', 'X-Svc-Test-Scenario');
  });

  it('only inspections advertises them, in the catalogue and in the OpenAPI document', async () => {
    const catalogue = await call(svc.baseUrl, 'GET', '/v1/endpoints', { key: svc.org.testKey });
    const document = await call(svc.baseUrl, 'GET', '/v1/openapi.json');
    for (const entry of catalogue.body.data as { slug: string; scenarios: string[] }[]) {
      // a parameter the endpoints share is a component the operation names by $ref
      const parameters = document.body.paths[`/v1/${entry.slug}`].post.parameters.map(
        (p: { $ref?: string; name?: string }) =>
          p.$ref ? document.body.components.parameters[p.$ref.split('/').pop()!] : p,
      );
      const header = parameters.find((p: { name: string }) => p.name === 'X-Svc-Test-Scenario');
      const stageFailures = entry.slug === 'inspections' ? [...INSPECTION_FAILURE_SCENARIOS] : [];
      expect(
        entry.scenarios.filter((s) => s.startsWith('fail_at_')),
        entry.slug,
      ).toEqual(stageFailures);
      expect(header.schema.enum, entry.slug).toEqual(entry.scenarios);
    }
  });
});
