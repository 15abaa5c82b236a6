import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INSPECTION_STAGES } from '../../lambdas/domain/catalogue/inspection-stages.js';
import { inspectionPrice } from '../../lambdas/domain/inspections/pricing.js';
import { call, expectEnvelope } from '../support/http.js';
import { expectMoneyInvariants } from '../support/invariants.js';
import { ledgerSum } from '../support/ledger.js';
import { STAGE_NAMES, submitInspection, watchInspection } from '../support/inspections.js';
import { startTestService, type TestService } from '../support/service.js';

let svc: TestService;

beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => {
  await svc.stop();
});

const get = (id: string) => call(svc.baseUrl, 'GET', `/v1/jobs/${id}`, { key: svc.org.testKey });

describe('inspections: a full run', () => {
  it('answers 202 with a queued inspection whose eight stages are queued, in pipeline order', async () => {
    const created = await submitInspection(svc.baseUrl, { key: svc.org.testKey, seed: 'queued-shape' });
    expect(created.status).toBe(202);
    expect(created.body).toMatchObject({ object: 'job', endpoint: 'inspections', status: 'queued', result: null, error: null, credits: { reserved: 150, charged: null } });
    expect(created.body.stages.map((s: { stage: number; name: string; endpoint: string }) => [s.stage, s.name, s.endpoint])).toEqual(INSPECTION_STAGES.map((s) => [s.stage, s.name, s.endpoint]));
    for (const stage of created.body.stages) expect(stage).toMatchObject({ status: 'queued', job_id: null, started_at: null, completed_at: null, error: null, skipped: false });
    await watchInspection(svc.services, created.body.id);
  });

  it('fills stages[] in pipeline order, each a real child job, then succeeds with a result aggregating the stages', async () => {
    const created = await submitInspection(svc.baseUrl, { key: svc.org.testKey, seed: 'full-run' });
    const { views } = await watchInspection(svc.services, created.body.id);
    // the inspection was seen mid-run: processing with some stages done and no result
    expect(views.some((v) => v.status === 'processing' && v.stages!.some((s) => s.status === 'succeeded'))).toBe(true);

    const settled = (await get(created.body.id)).body;
    expect(settled).toMatchObject({ status: 'succeeded', error: null, credits: { reserved: 150, charged: 150 }, model_version: 'inspection-bundle-v1@2026-08-01' });
    expect(settled.stages.map((s: { name: string }) => s.name)).toEqual([...STAGE_NAMES]);
    let previousCompleted = 0;
    for (const stage of settled.stages) {
      expect(stage).toMatchObject({ status: 'succeeded', skipped: false, error: null });
      expect(stage.job_id).toMatch(/^job_/);
      expect(stage.completed_at).toBeGreaterThanOrEqual(previousCompleted);
      previousCompleted = stage.completed_at;
      expect(stage.result).toBeTypeOf('object');
    }
    expect(new Set(settled.stages.map((s: { job_id: string }) => s.job_id)).size).toBe(8);
    expect(Object.keys(settled.result.stages).sort()).toEqual([...STAGE_NAMES].sort());
    expect(settled.result).toMatchObject({ stages_succeeded: 8, stages_skipped: [] });
    const detect = settled.stages.find((s: { name: string }) => s.name === 'detect_damage');
    expect(settled.result.stages.detect_damage).toEqual(detect.result);

    for (const stage of settled.stages) {
      const child = await get(stage.job_id);
      expect(child.status).toBe(200);
      expect(child.body).toMatchObject({ id: stage.job_id, endpoint: stage.endpoint, status: 'succeeded', credits: { reserved: 0, charged: 0 } });
      expect(child.body).not.toHaveProperty('stages');
      if (stage.name === 'detect_damage' || stage.name === 'grade_severity') expect(child.body.result).toEqual(stage.result);
    }
  });
});
