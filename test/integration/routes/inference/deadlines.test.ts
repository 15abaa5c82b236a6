import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { CATALOGUE } from '../../../../lambdas/domain/catalogue/catalogue.js';
import { expirePastDeadline } from '../../../../lambdas/domain/jobs/deadline-expiry.js';
import type { JobRecord } from '../../../../lambdas/domain/jobs/job.js';
import { settleJob, type WorkOutcome } from '../../../../lambdas/domain/jobs/settlement.js';
import type { InferencePlane } from '../../../../lambdas/domain/ports/jobs.js';
import { INFERENCE_SLUGS, submit } from '../../../support/endpoint-calls.js';
import { type ApiResponse, call, eventually, expectEnvelope, formWith, imageFile } from '../../../support/http.js';
import { submitInspection } from '../../../support/inspections.js';
import { expectMoneyInvariants, sideEffects } from '../../../support/invariants.js';
import { postSignedCompletion } from '../../../support/live-job.js';
import { allPages } from '../../../support/management.js';
import { sharedTestService, type TestService } from '../../../support/service.js';

// `Svc-Deadline` (docs/internals/deadlines.md): a job unsettled that many seconds after `created` expires
// with `deadline_exceeded`, charged nothing, `job.failed` sent, at most 5 s late; a completion
// arriving afterwards changes nothing. Jobs steered `slow` here are queued 3 s, then processing 3 s.
const SLOW_SECONDS = 3;
/** how late an expiry may land, by the job's own whole-second timestamps */
const MAX_LATENESS_SECONDS = 5;

const svc = sharedTestService({ config: { slowScenarioSeconds: SLOW_SECONDS } });
afterAll(async () => {
  await expectMoneyInvariants(svc.services, svc.org.organization.id, false);
});

function postPlate(
  target: TestService,
  key: string,
  headers: Record<string, string>,
  seed = 'deadline-plate',
): Promise<ApiResponse> {
  return call(target.baseUrl, 'POST', '/v1/plate.read', { key, form: formWith('image', [imageFile(seed)]), headers });
}

async function settledRecord(target: TestService, id: string, timeoutMs = 20_000): Promise<JobRecord> {
  return eventually(
    async () => {
      const job = await target.services.jobs.get(id);
      return job && ['succeeded', 'failed', 'expired', 'canceled'].includes(job.status) ? job : null;
    },
    timeoutMs,
    100,
  );
}

async function ledgerOf(target: TestService, jobId: string, livemode: boolean): Promise<[string, number][]> {
  const entries = (await allPages(target, 'admin', `/mgmt/v1/ledger?livemode=${livemode}`)).filter(
    (entry) => entry.job_id === jobId,
  );
  return entries.map((entry) => [entry.kind, entry.amount] as [string, number]).sort();
}

/** The expiry every deadline produces: status, error, charge, lateness, the ledger's two entries and one job.failed. */
async function expectExpiredByDeadline(
  target: TestService,
  job: JobRecord,
  deadline: number,
  livemode = false,
): Promise<void> {
  expect(job).toMatchObject({
    status: 'expired',
    result: null,
    error: { type: 'processing_error', code: 'deadline_exceeded' },
    credits: { charged: 0 },
  });
  expect(job.completed_at! - job.created).toBeGreaterThanOrEqual(deadline);
  expect(job.completed_at! - job.created).toBeLessThanOrEqual(deadline + MAX_LATENESS_SECONDS);
  const reserved = job.credits.reserved;
  expect(await ledgerOf(target, job.id, livemode)).toEqual([
    ['release', reserved],
    ['reserve', -reserved],
  ]);
  // (an inspection also announces each stage it records: inspection.stage_completed)
  const events = (await allPages(target, 'admin', `/mgmt/v1/events?job_id=${job.id}`)).filter((event) =>
    event.type.startsWith('job.'),
  );
  expect(events.map((event) => event.type)).toEqual(['job.failed']);
  expect(events[0].data.job).toMatchObject({
    id: job.id,
    status: 'expired',
    error: { code: 'deadline_exceeded' },
    credits: { charged: 0 },
  });
}

describe('a bad Svc-Deadline is refused with the envelope and writes nothing', () => {
  it.each(['0', '3601', 'abc', '1.5', '', '-5', '+5', '1e3', '007', ' '])('%j', async (value) => {
    const orgId = svc.org.organization.id;
    const before = await sideEffects(svc.services, orgId);
    const refused = await postPlate(svc, svc.org.testKey, {
      'Svc-Deadline': value,
      'Idempotency-Key': `bad-deadline-${value}-${Date.now()}`,
    });
    expectEnvelope(refused, 400, 'invalid_request', 'parameter_invalid', 'Svc-Deadline');
    expect(refused.headers.get('svc-deadline')).toBeNull();
    expect(await sideEffects(svc.services, orgId)).toEqual(before);
  });

  it('on inspections too', async () => {
    const refused = await call(svc.baseUrl, 'POST', '/v1/inspections', {
      key: svc.org.testKey,
      json: { input_refs: [] },
      headers: { 'Svc-Deadline': '3601' },
    });
    expectEnvelope(refused, 400, 'invalid_request', 'parameter_invalid', 'Svc-Deadline');
  });
});

describe('the header is echoed on the answer', () => {
  it('on the 202, on its idempotent replay, and not when none was sent', async () => {
    const key = `deadline-echo-${Date.now()}`;
    const first = await postPlate(
      svc,
      svc.org.testKey,
      { 'Svc-Deadline': '600', 'Idempotency-Key': key, 'X-Svc-Test-Scenario': 'slow' },
      'echo',
    );
    expect(first.status).toBe(202);
    expect(first.headers.get('svc-deadline')).toBe('600');
    const replay = await postPlate(
      svc,
      svc.org.testKey,
      { 'Svc-Deadline': '600', 'Idempotency-Key': key, 'X-Svc-Test-Scenario': 'slow' },
      'echo',
    );
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.headers.get('svc-deadline')).toBe('600');
    expect(replay.body.id).toBe(first.body.id);
    // the same key with another deadline is another request
    const other = await postPlate(
      svc,
      svc.org.testKey,
      { 'Svc-Deadline': '601', 'Idempotency-Key': key, 'X-Svc-Test-Scenario': 'slow' },
      'echo',
    );
    expect(other.status).toBe(409);
    const none = await postPlate(svc, svc.org.testKey, {}, 'no-deadline');
    expect(none.status).toBe(202);
    expect(none.headers.get('svc-deadline')).toBeNull();
  });

  it('a deadline not reached changes nothing: the job succeeds and is charged', async () => {
    const answered = await call(svc.baseUrl, 'POST', '/v1/plate.read?wait=true', {
      key: svc.org.testKey,
      form: formWith('image', [imageFile('in-time')]),
      headers: { 'Svc-Deadline': '30' },
    });
    expect(answered.status).toBe(200);
    expect(answered.headers.get('svc-deadline')).toBe('30');
    expect(answered.body).toMatchObject({ status: 'succeeded', credits: { charged: 2 } });
  });
});

describe('a deadline expires a slow job, charged nothing', () => {
  it('processing when the deadline passes: expired, released, job.failed, and the worker finishing later changes nothing', async () => {
    // it is due SLOW_SECONDS after `created` (a whole second), picked up within the next second or so: 2 s of margin
    const deadline = SLOW_SECONDS + 2;
    const created = await postPlate(
      svc,
      svc.org.testKey,
      { 'Svc-Deadline': String(deadline), 'X-Svc-Test-Scenario': 'slow' },
      'slow-deadline',
    );
    expect(created.status).toBe(202);
    expect(created.headers.get('svc-deadline')).toBe(String(deadline));
    const expired = await settledRecord(svc, created.body.id);
    // it was picked up (processing) before its deadline came
    expect(expired.started_at).not.toBeNull();
    await expectExpiredByDeadline(svc, expired, deadline);

    // the sandbox run ends SLOW_SECONDS after its pick-up; its settlement must find the job expired.
    // Nothing signals that it tried, so the test waits past that moment (plus a second) and looks again.
    await sleep(Math.max(0, (expired.started_at! + SLOW_SECONDS + 1) * 1000 - svc.clock.nowMs()));
    const later = await call(svc.baseUrl, 'GET', `/v1/jobs/${created.body.id}`, { key: svc.org.testKey });
    expect(later.body).toMatchObject({
      status: 'expired',
      completed_at: expired.completed_at,
      credits: { charged: 0 },
      error: { code: 'deadline_exceeded' },
    });
    await expectExpiredByDeadline(svc, (await svc.services.jobs.get(created.body.id))!, deadline);
  });

  it.concurrent.each(INFERENCE_SLUGS.filter((slug) => CATALOGUE[slug].scenarios.includes('slow')))(
    '%s: still queued at its deadline',
    async (slug) => {
      const deadline = 1;
      // wait-capable endpoints are called with wait=true: the answer is the expired job, header echoed
      const answered = await submit(
        svc.baseUrl,
        slug,
        svc.org.testKey,
        { 'Svc-Deadline': String(deadline), 'X-Svc-Test-Scenario': 'slow' },
        `${slug}-deadline`,
      );
      expect([200, 202]).toContain(answered.status);
      expect(answered.headers.get('svc-deadline')).toBe(String(deadline));
      if (answered.status === 200)
        expect(answered.body).toMatchObject({ status: 'expired', error: { code: 'deadline_exceeded' } });
      const expired = await settledRecord(svc, answered.body.id);
      expect(expired.started_at).toBeNull();
      await expectExpiredByDeadline(svc, expired, deadline);
    },
  );
});

describe('an inspection past its deadline', () => {
  it('is expired with its running stage, the rest canceled, its execution stopped, charged nothing', async () => {
    // the inspection is held 3 s (slow), then its first stage job (created 3 s and the pipeline's start in) is held 3 s and
    // processes 3 s: a 7 s deadline falls on that stage, queued or processing, with seconds to spare on a busy machine
    const deadline = SLOW_SECONDS + 4;
    const inspection = await submitInspection(svc.baseUrl, {
      key: svc.org.testKey,
      scenario: 'slow',
      seed: 'deadline-inspection',
      headers: { 'Svc-Deadline': String(deadline) },
    });
    expect(inspection.status).toBe(202);
    expect(inspection.headers.get('svc-deadline')).toBe(String(deadline));
    const expired = await settledRecord(svc, inspection.body.id, 30_000);
    await expectExpiredByDeadline(svc, expired, deadline);

    // the stage in flight expired with it; every stage is recorded, none left running
    expect(expired.stages!.every((stage) => stage.recorded)).toBe(true);
    const started = expired.stages!.filter((stage) => stage.job_id);
    expect(started.length).toBeGreaterThan(0);
    const running = started.at(-1)!;
    expect(running).toMatchObject({ status: 'expired', error: { code: 'deadline_exceeded' } });
    const child = (await svc.services.jobs.get(running.job_id!))!;
    expect(child).toMatchObject({ status: 'expired', error: { code: 'deadline_exceeded' } });
    expect(expired.stages!.filter((stage) => !stage.job_id).every((stage) => stage.status === 'canceled')).toBe(true);
    expect(
      await svc.services.orchestrator.describe({ inspection_id: expired.id, attempt: expired.execution_attempt ?? 0 }),
    ).toBe('failed');

    const view = await call(svc.baseUrl, 'GET', `/v1/jobs/${expired.id}`, { key: svc.org.testKey });
    expect(view.body).toMatchObject({
      status: 'expired',
      credits: { charged: 0 },
      error: { code: 'deadline_exceeded' },
    });
    expect(
      view.body.stages.some((stage: { status: string }) => stage.status === 'processing' || stage.status === 'queued'),
    ).toBe(false);
  });
});

describe('a live job past its deadline', () => {
  const accepted: string[] = [];
  const canceled: string[] = [];
  /** accepts every job and never calls back on its own: the test plays the plane */
  const plane: InferencePlane = {
    submit: async (job) => {
      accepted.push(job.id);
      return true;
    },
    cancel: async (job) => {
      canceled.push(job.id);
    },
  };
  const live = sharedTestService({ livePlane: plane });

  it('is expired while the plane works it, the plane is told to stop, and its late callback changes and charges nothing', async () => {
    const deadline = 2;
    const created = await postPlate(live, live.org.liveKey, { 'Svc-Deadline': String(deadline) }, 'live-deadline');
    expect(created.status).toBe(202);
    await eventually(async () => (await live.services.jobs.get(created.body.id))?.status === 'processing');
    const expired = await settledRecord(live, created.body.id);
    await expectExpiredByDeadline(live, expired, deadline, true);
    expect(accepted).toContain(created.body.id);
    expect(canceled).toEqual([created.body.id]);

    const balance = await live.services.accounts.getBalance(live.org.organization.id, true);
    const body = JSON.stringify({
      job_id: created.body.id,
      status: 'succeeded',
      model_version: `${CATALOGUE['plate.read'].model}@2025-01-01`,
      result: { plates: [] },
    });
    const late = await postSignedCompletion(live, body);
    expect(late.status).toBe(200);
    expect(late.body).toEqual({ received: true, job_id: created.body.id, status: 'expired' });
    expect(await live.services.jobs.get(created.body.id)).toEqual(expired);
    expect(await live.services.accounts.getBalance(live.org.organization.id, true)).toBe(balance);
    await expectExpiredByDeadline(live, expired, deadline, true);
    await expectMoneyInvariants(live.services, live.org.organization.id, true);
  });

  it('settles nothing when its callback comes after the deadline but before the timer: 200 with the job expired, charged nothing', async () => {
    // the timer is a minute away in real time; the callback comes a second past the deadline by the clock
    const deadline = 60;
    const balance = await live.services.accounts.getBalance(live.org.organization.id, true);
    const created = await postPlate(live, live.org.liveKey, { 'Svc-Deadline': String(deadline) }, 'live-late-callback');
    expect(created.status).toBe(202);
    await eventually(async () => (await live.services.jobs.get(created.body.id))?.status === 'processing');
    live.clock.advance((deadline + 1) * 1000);
    try {
      const body = JSON.stringify({
        job_id: created.body.id,
        status: 'succeeded',
        model_version: `${CATALOGUE['plate.read'].model}@2025-01-01`,
        result: { plates: [], needs_review: false },
      });
      const late = await postSignedCompletion(live, body);
      expect(late.status, JSON.stringify(late.body)).toBe(200);
      expect(late.body).toEqual({ received: true, job_id: created.body.id, status: 'expired' });
      const expired = (await live.services.jobs.get(created.body.id))!;
      await expectExpiredByDeadline(live, expired, deadline, true);
      expect(expired.result).toBeNull();
      expect(await live.services.accounts.getBalance(live.org.organization.id, true)).toBe(balance);
      await expectMoneyInvariants(live.services, live.org.organization.id, true);
    } finally {
      live.clock.reset();
    }
  });

  it('refuses a settlement whose transaction comes after the deadline, whatever checked it before', async () => {
    const created = await postPlate(live, live.org.liveKey, { 'Svc-Deadline': '60' }, 'live-late-settlement');
    await eventually(async () => (await live.services.jobs.get(created.body.id))?.status === 'processing');
    const processing = (await live.services.jobs.get(created.body.id))!;
    live.clock.advance(61_000);
    try {
      const outcome: WorkOutcome = {
        status: 'succeeded',
        result: { plates: [], needs_review: false },
        files: {},
        billableUnits: 1,
      };
      expect(await settleJob(live.services, processing, outcome)).toBeNull();
      expect((await live.services.jobs.get(created.body.id))!.status).toBe('processing');
      // the timer's work, done at once here
      expect((await expirePastDeadline(live.services, processing))?.status).toBe('expired');
    } finally {
      live.clock.reset();
    }
  });
});
