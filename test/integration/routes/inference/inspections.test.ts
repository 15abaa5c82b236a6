import { describe, expect, it } from 'vitest';
import { INSPECTION_STAGES } from '../../../../lambdas/domain/catalogue/inspection-stages.js';
import { inspectionPrice } from '../../../../lambdas/domain/inspections/pricing.js';
import { presentJob } from '../../../../lambdas/domain/jobs/job-view.js';
import { call, eventually, expectEnvelope } from '../../../support/http.js';
import { STAGE_NAMES, submitInspection, watchInspection } from '../../../support/inspections.js';
import { expectMoneyInvariants } from '../../../support/invariants.js';
import { ledgerSum } from '../../../support/ledger.js';
import { sharedTestService } from '../../../support/service.js';

const svc = sharedTestService();

const get = (id: string) => call(svc.baseUrl, 'GET', `/v1/jobs/${id}`, { key: svc.org.testKey });

describe('inspections: a full run', () => {
  it("a stage whose child job is still queued shows started_at null, then the child's started_at once it runs", async () => {
    const created = await submitInspection(svc.baseUrl, {
      key: svc.org.testKey,
      scenario: 'slow',
      seed: 'stage-started-at',
    });
    const childId = await eventually(
      async () => (await svc.services.jobs.get(created.body.id))?.stages?.[0]?.job_id,
      15_000,
      20,
    );
    const queued = await get(created.body.id);
    expect(queued.body.stages[0]).toMatchObject({ status: 'queued', job_id: childId, started_at: null });
    expect((await get(childId)).body).toMatchObject({ status: 'queued', started_at: null });
    const running = await eventually(
      async () => {
        const child = await svc.services.jobs.get(childId);
        return child?.status === 'processing' ? child : null;
      },
      15_000,
      20,
    );
    const view = await presentJob(svc.services, (await svc.services.jobs.get(created.body.id))!);
    expect(view.stages![0]).toMatchObject({ status: 'processing', started_at: running.started_at });
    await watchInspection(svc.services, created.body.id);
  });

  it('answers 202 with a queued inspection whose eight stages are queued, in pipeline order', async () => {
    const created = await submitInspection(svc.baseUrl, { key: svc.org.testKey, seed: 'queued-shape' });
    expect(created.status).toBe(202);
    expect(created.body).toMatchObject({
      object: 'job',
      endpoint: 'inspections',
      status: 'queued',
      result: null,
      error: null,
      credits: { reserved: 150, charged: null },
    });
    expect(
      created.body.stages.map((s: { stage: number; name: string; endpoint: string }) => [s.stage, s.name, s.endpoint]),
    ).toEqual(INSPECTION_STAGES.map((s) => [s.stage, s.name, s.endpoint]));
    for (const stage of created.body.stages)
      expect(stage).toMatchObject({
        status: 'queued',
        job_id: null,
        started_at: null,
        completed_at: null,
        error: null,
        skipped: false,
      });
    await watchInspection(svc.services, created.body.id);
  });

  it('fills stages[] in pipeline order, each a real child job, then succeeds with a result aggregating the stages', async () => {
    const created = await submitInspection(svc.baseUrl, { key: svc.org.testKey, seed: 'full-run' });
    const { views } = await watchInspection(svc.services, created.body.id);
    // the inspection was seen mid-run: processing with some stages done and no result
    expect(views.some((v) => v.status === 'processing' && v.stages!.some((s) => s.status === 'succeeded'))).toBe(true);

    const settled = (await get(created.body.id)).body;
    expect(settled).toMatchObject({
      status: 'succeeded',
      error: null,
      credits: { reserved: 150, charged: 150 },
      model_version: 'inspection-bundle-v1@2026-08-01-fixture',
    });
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
      expect(child.body).toMatchObject({
        id: stage.job_id,
        endpoint: stage.endpoint,
        status: 'succeeded',
        credits: { reserved: 0, charged: 0 },
      });
      expect(child.body).not.toHaveProperty('stages');
      if (stage.name === 'detect_damage' || stage.name === 'grade_severity')
        expect(child.body.result).toEqual(stage.result);
    }
  });
});

describe('inspections: billing', () => {
  it('charges the blended price once; stage jobs show reserved 0 / charged 0 and never touch the ledger', async () => {
    const before = await svc.services.accounts.getBalance(svc.org.organization.id, false);
    const created = await submitInspection(svc.baseUrl, { key: svc.org.testKey, seed: 'billing' });
    const { record } = await watchInspection(svc.services, created.body.id);
    expect(record.credits).toEqual({ reserved: 150, charged: 150 });
    expect(await svc.services.accounts.getBalance(svc.org.organization.id, false)).toBe(before - 150);
    const ledger = await svc.services.accounts.listLedger({
      orgId: svc.org.organization.id,
      livemode: false,
      limit: 100,
    });
    const stageIds = new Set(record.stages!.map((s) => s.job_id));
    expect(ledger.items.filter((e) => e.job_id !== null && stageIds.has(e.job_id))).toEqual([]);
    expect(ledger.items.filter((e) => e.job_id === record.id).reduce((sum, e) => sum + e.amount, 0)).toBe(-150);
    await expectMoneyInvariants(svc.services, svc.org.organization.id, false);
    expect(await ledgerSum(svc.services, svc.org.organization.id, false)).toBe(
      await svc.services.accounts.getBalance(svc.org.organization.id, false),
    );
  });
});

describe('inspections: excluded stages', () => {
  it('skips excluded stages (skipped, canceled, no job) and charges the price less their shares; no video is needed without onboard_walkaround', async () => {
    const exclude = ['onboard_walkaround', 'price_repair'];
    const price = inspectionPrice(['onboard_walkaround', 'price_repair']);
    expect(price).toBe(150 - 30 - 15);
    const created = await submitInspection(svc.baseUrl, {
      key: svc.org.testKey,
      video: false,
      exclude,
      seed: 'excluded',
    });
    expect(created.status).toBe(202);
    expect(created.body.credits).toEqual({ reserved: price, charged: null });
    for (const stage of created.body.stages) expect(stage.skipped).toBe(exclude.includes(stage.name));
    await watchInspection(svc.services, created.body.id);

    const settled = (await get(created.body.id)).body;
    expect(settled).toMatchObject({ status: 'succeeded', credits: { reserved: price, charged: price } });
    for (const stage of settled.stages) {
      if (exclude.includes(stage.name)) {
        expect(stage).toMatchObject({ skipped: true, status: 'canceled', job_id: null, error: null });
        expect(stage).not.toHaveProperty('result');
        expect(settled.result.stages[stage.name]).toBeNull();
      } else {
        expect(stage).toMatchObject({ skipped: false, status: 'succeeded' });
      }
    }
    expect(settled.result.stages_skipped).toEqual(exclude);
  });

  it('refuses an unknown stage name, naming stages.exclude', async () => {
    const response = await submitInspection(svc.baseUrl, {
      key: svc.org.testKey,
      exclude: ['detect_damage', 'wash_car'],
      seed: 'unknown-stage',
    });
    expectEnvelope(response, 400, 'invalid_request', 'parameter_invalid', 'stages.exclude');
  });
});

describe('inspections: failures', () => {
  it.each(STAGE_NAMES.map((name, i) => [name, i] as const))(
    'fail_at_%s fails that stage, cancels the later ones and fails the inspection, charging 0',
    async (name, index) => {
      const before = await svc.services.accounts.getBalance(svc.org.organization.id, false);
      const created = await submitInspection(svc.baseUrl, {
        key: svc.org.testKey,
        scenario: `fail_at_${name}`,
        seed: `fail-${name}`,
      });
      expect(created.status).toBe(202);
      await watchInspection(svc.services, created.body.id);
      const settled = (await get(created.body.id)).body;
      expect(settled).toMatchObject({
        status: 'failed',
        result: null,
        credits: { reserved: 150, charged: 0 },
        test_scenario: `fail_at_${name}`,
      });
      expect(settled.error).toMatchObject({ type: 'processing_error', code: 'model_inference_failed' });
      expect(settled.error.message).toContain(name);
      settled.stages.forEach((stage: Record<string, any>, i: number) => {
        if (i < index) expect(stage).toMatchObject({ status: 'succeeded' });
        if (i === index) expect(stage).toMatchObject({ status: 'failed', error: { code: 'model_inference_failed' } });
        if (i > index) expect(stage).toMatchObject({ status: 'canceled', job_id: null, skipped: false });
        expect(stage.completed_at).not.toBeNull();
      });
      const failedChild = await get(settled.stages[index].job_id);
      expect(failedChild.body).toMatchObject({
        status: 'failed',
        credits: { reserved: 0, charged: 0 },
        error: { code: 'model_inference_failed' },
      });
      expect(await svc.services.accounts.getBalance(svc.org.organization.id, false)).toBe(before);
    },
  );

  it('model_error fails the detect_damage stage', async () => {
    const created = await submitInspection(svc.baseUrl, {
      key: svc.org.testKey,
      scenario: 'model_error',
      seed: 'model-error',
    });
    await watchInspection(svc.services, created.body.id);
    const settled = (await get(created.body.id)).body;
    expect(settled.status).toBe('failed');
    expect(settled.stages.find((s: { status: string }) => s.status === 'failed').name).toBe('detect_damage');
    await expectMoneyInvariants(svc.services, svc.org.organization.id, false);
  });

  it('a stage job cannot be canceled on its own: it belongs to its inspection', async () => {
    const created = await submitInspection(svc.baseUrl, { key: svc.org.testKey, seed: 'cancel-child' });
    const { record } = await watchInspection(svc.services, created.body.id);
    const response = await call(svc.baseUrl, 'POST', `/v1/jobs/${record.stages![0]!.job_id}/cancel`, {
      key: svc.org.testKey,
    });
    expectEnvelope(response, 409, 'conflict', 'job_not_cancelable', 'id');
  });
});

describe('inspections: requests refused', () => {
  it('refuses wait=true with wait_not_supported', async () => {
    expectEnvelope(
      await submitInspection(svc.baseUrl, { key: svc.org.testKey, query: '?wait=true', seed: 'wait' }),
      400,
      'invalid_request',
      'wait_not_supported',
      'wait',
    );
  });

  it('refuses an inspection without the walk-around video unless onboard_walkaround is excluded', async () => {
    expectEnvelope(
      await submitInspection(svc.baseUrl, { key: svc.org.testKey, video: false, seed: 'no-video' }),
      400,
      'invalid_request',
      'missing_input',
      'input_refs',
    );
  });

  it('refuses an inspection without photos', async () => {
    expectEnvelope(
      await submitInspection(svc.baseUrl, { key: svc.org.testKey, photos: 0, seed: 'no-photos' }),
      400,
      'invalid_request',
      'missing_input',
      'input_refs',
    );
  });

  it('refuses an unknown test scenario and offers the fail_at_<stage> ones', async () => {
    const response = await submitInspection(svc.baseUrl, {
      key: svc.org.testKey,
      scenario: 'low_confidence',
      seed: 'bad-scenario',
    });
    expectEnvelope(response, 400, 'invalid_request', 'test_scenario_not_supported');
    expect(response.body.error.message).toContain('fail_at_detect_damage');
  });

  it('refuses the insufficient_credits scenario with 402, holding nothing', async () => {
    const before = await svc.services.accounts.getBalance(svc.org.organization.id, false);
    const response = await submitInspection(svc.baseUrl, {
      key: svc.org.testKey,
      scenario: 'insufficient_credits',
      seed: 'no-credits',
    });
    expectEnvelope(response, 402, 'insufficient_credits', 'insufficient_credits');
    expect(await svc.services.accounts.getBalance(svc.org.organization.id, false)).toBe(before);
  });

  it('refuses the photos in multipart: inspections take JSON input_refs only', async () => {
    const form = new FormData();
    form.append('images', new Blob([Buffer.alloc(64, 1)], { type: 'image/jpeg' }), 'a.jpg');
    expectEnvelope(
      await call(svc.baseUrl, 'POST', '/v1/inspections', { key: svc.org.testKey, form }),
      400,
      'invalid_request',
      'json_encoding_required',
    );
  });

  it('refuses any multipart body, whatever its fields are named, as json_encoding_required (not as an unknown field)', async () => {
    const form = new FormData();
    form.append('video', new Blob([Buffer.alloc(64, 2)], { type: 'video/mp4' }), 'walk.mp4');
    form.append('images[]', new Blob([Buffer.alloc(64, 1)], { type: 'image/jpeg' }), 'a.jpg');
    const response = await call(svc.baseUrl, 'POST', '/v1/inspections', { key: svc.org.testKey, form });
    expectEnvelope(response, 400, 'invalid_request', 'json_encoding_required', 'images');
    expect(response.body.error.message).toContain('input_refs');
  });

  it('lists inspections as available in the catalogue, billed per inspection, without wait', async () => {
    const response = await call(svc.baseUrl, 'GET', '/v1/endpoints', { key: svc.org.testKey });
    const entry = response.body.data.find((e: { slug: string }) => e.slug === 'inspections');
    expect(entry).toMatchObject({
      availability: 'available',
      metering: 'per_inspection',
      price: 150,
      accepts_wait: false,
      family: 'inspections',
    });
    expect(entry.scenarios).toEqual(
      expect.arrayContaining(['model_error', 'slow', ...STAGE_NAMES.map((n) => `fail_at_${n}`)]),
    );
  });
});

describe('inspections: queued', () => {
  const paused = sharedTestService({ workerPaused: true });

  it('cancel of a queued inspection releases its whole reservation; its stages show canceled', async () => {
    const before = await paused.services.accounts.getBalance(paused.org.organization.id, false);
    const created = await submitInspection(paused.baseUrl, { key: paused.org.testKey, seed: 'cancel' });
    expect(await paused.services.accounts.getBalance(paused.org.organization.id, false)).toBe(before - 150);
    const canceled = await call(paused.baseUrl, 'POST', `/v1/jobs/${created.body.id}/cancel`, {
      key: paused.org.testKey,
    });
    expect(canceled.status).toBe(200);
    expect(canceled.body).toMatchObject({ status: 'canceled', credits: { reserved: 150, charged: 0 } });
    for (const stage of canceled.body.stages)
      expect(stage).toMatchObject({
        status: 'canceled',
        job_id: null,
        started_at: null,
        completed_at: canceled.body.completed_at,
      });
    expect(await paused.services.accounts.getBalance(paused.org.organization.id, false)).toBe(before);
    await expectMoneyInvariants(paused.services, paused.org.organization.id, false);
  });

  it('a queued inspection expires after its queue timeout like any job, releasing its reservation', async () => {
    const before = await paused.services.accounts.getBalance(paused.org.organization.id, false);
    const created = await submitInspection(paused.baseUrl, { key: paused.org.testKey, seed: 'expire' });
    paused.clock.advance(16 * 60 * 1000);
    await paused.sweeper.sweep();
    const expired = await call(paused.baseUrl, 'GET', `/v1/jobs/${created.body.id}`, { key: paused.org.testKey });
    expect(expired.body).toMatchObject({
      status: 'expired',
      credits: { reserved: 150, charged: 0 },
      error: { code: 'job_expired' },
    });
    for (const stage of expired.body.stages)
      expect(stage).toMatchObject({ status: 'canceled', job_id: null, completed_at: expired.body.completed_at });
    expect(await paused.services.accounts.getBalance(paused.org.organization.id, false)).toBe(before);
  });
});
