import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { authenticateApiKey } from '../../../../lambdas/domain/access/api-keys.js';
import { CATALOGUE, type EndpointSlug } from '../../../../lambdas/domain/catalogue/catalogue.js';
import { type Admission, admit } from '../../../../lambdas/domain/jobs/admission.js';
import type { JobRecord } from '../../../../lambdas/domain/jobs/job.js';
import { processJob, sweepDueJobs, type TestBackend } from '../../../../lambdas/domain/jobs/processing.js';
import { InjectedFault } from '../../../../lambdas/domain/kernel/faults.js';
import { sandboxBackend } from '../../../../lambdas/sandbox/backend.js';
import { loadSandboxModel } from '../../../../lambdas/sandbox/load.js';
import { type InMemoryWorld, inMemoryWorld } from '../../../support/in-memory/services.js';
import { expectMoneyInvariants } from '../../../support/invariants.js';

// processJob on in-memory ports: the worker's pick-up, the test-mode backend, expiry and live hand-off.

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('a small picture of a car'),
]);

let { services, faults, org } = {} as InMemoryWorld;
let backend: TestBackend;

// the sandbox model is imported on first use: once, before the clocks of the tests start
beforeAll(async () => {
  await loadSandboxModel('plate.read');
});

beforeEach(async () => {
  ({ services, faults, org } = await inMemoryWorld());
  backend = sandboxBackend(services);
});

async function admitted(secret: string, slug: EndpointSlug = 'plate.read', scenario?: string): Promise<JobRecord> {
  const admission: Admission = await admit(services, {
    requestId: 'req_test',
    endpoint: CATALOGUE[slug],
    key: { principal: await authenticateApiKey(services, secret, { provisional: true }), secret },
    scenario,
    idempotency: null,
    request: {
      kind: 'job',
      wait: false,
      params: {},
      files: [{ filename: 'car.png', contentType: 'image/png', bytes: PNG }],
      inputRefs: [],
      inputRefsParam: 'input_ref',
    },
  });
  if (admission.kind !== 'admitted') throw new Error(`not admitted: ${JSON.stringify(admission)}`);
  return (await services.jobs.get(admission.job.id))!;
}

const job = async (id: string) => (await services.jobs.get(id))!;

describe('a test-mode job', () => {
  it('is picked up and settled in one transaction: succeeded, charged, counted in usage, its event written', async () => {
    const queued = await admitted(org.testKey);
    expect(await processJob(services, backend, queued.id)).toBe('settled');
    const settled = await job(queued.id);
    expect(settled).toMatchObject({
      status: 'succeeded',
      credits: { reserved: queued.credits.reserved, charged: queued.credits.reserved },
    });
    expect(settled.started_at).not.toBeNull();
    expect(settled.result).not.toBeNull();
    const [usage] = await services.usage.list({ orgId: org.organization.id, from: '2000-01-01', to: '2100-01-01' });
    expect(usage).toMatchObject({
      endpoint: 'plate.read',
      livemode: false,
      requests: 1,
      succeeded: 1,
      credits_charged: queued.credits.reserved,
    });
    // nobody listens: the event is written already dispatched, and nothing is queued for it
    const [event] = (await services.webhooks.listEvents({ orgId: org.organization.id, limit: 10 })).items;
    expect(event).toMatchObject({ type: 'job.succeeded', data: { job: { id: queued.id, status: 'succeeded' } } });
    expect((await services.webhooks.getEvent(event!.id))!.dispatched).toBe(true);
    expect(services.webhookQueue.sent).toHaveLength(0);
    await expectMoneyInvariants(services, org.organization.id, false);
  });

  it('is settled once, however often its message comes', async () => {
    const queued = await admitted(org.testKey);
    expect(await processJob(services, backend, queued.id)).toBe('settled');
    expect(await processJob(services, backend, queued.id)).toBe('already_done');
    expect(
      (await services.accounts.listLedger({ orgId: org.organization.id, livemode: false, limit: 100 })).items.filter(
        (e) => e.job_id === queued.id,
      ),
    ).toHaveLength(2);
    expect(await processJob(services, backend, 'job_unknown')).toBe('not_found');
    await expectMoneyInvariants(services, org.organization.id, false);
  });

  it('a failed model run settles failed, charges nothing and returns the whole reservation', async () => {
    const balance = await services.accounts.getBalance(org.organization.id, false);
    const queued = await admitted(org.testKey, 'plate.read', 'model_error');
    expect(await processJob(services, backend, queued.id)).toBe('settled');
    expect(await job(queued.id)).toMatchObject({
      status: 'failed',
      credits: { charged: 0 },
      error: { type: 'processing_error' },
    });
    expect(await services.accounts.getBalance(org.organization.id, false)).toBe(balance);
    await expectMoneyInvariants(services, org.organization.id, false);
  });

  it('a crash after the pick-up, in the backend or before the settlement leaves it queued with its money held; the next message settles it once', async () => {
    const queued = await admitted(org.testKey);
    faults.arm('processing.after_pick_up');
    await expect(processJob(services, backend, queued.id)).rejects.toBeInstanceOf(InjectedFault);
    const crashing: TestBackend = () => Promise.reject(new InjectedFault('the model crashed'));
    await expect(processJob(services, crashing, queued.id)).rejects.toBeInstanceOf(InjectedFault);
    faults.arm('processing.after_backend');
    await expect(processJob(services, backend, queued.id)).rejects.toBeInstanceOf(InjectedFault);
    expect(await job(queued.id)).toMatchObject({ status: 'queued', credits: { charged: null } });
    await expectMoneyInvariants(services, org.organization.id, false);
    expect(await processJob(services, backend, queued.id)).toBe('settled');
    await expectMoneyInvariants(services, org.organization.id, false);
  });

  it('steered slow, is deferred until due, then shows processing while it runs', async () => {
    const queued = await admitted(org.testKey, 'plate.read', 'slow');
    services.workQueues.standard.drain();
    expect(await processJob(services, backend, queued.id)).toBe('deferred');
    expect(services.workQueues.standard.sent).toEqual([
      { message: { job_id: queued.id }, delaySeconds: services.config.slowScenarioSeconds },
    ]);
    services.config.slowScenarioSeconds = 0;
    services.clock.advance(queued.simulated_delay_seconds! * 1000);
    expect(await processJob(services, backend, queued.id)).toBe('settled');
  });

  it('steered slow, stays queued its whole delay from the instant it was admitted, whatever part of its second that was', async () => {
    services.clock.advance(1000 - (services.clock.nowMs() % 1000) - 1); // admitted 1 ms before a whole second
    const queued = await admitted(org.testKey, 'plate.read', 'slow');
    services.workQueues.standard.drain();
    const delayMs = queued.simulated_delay_seconds * 1000;
    services.clock.advance(delayMs - 2); // past `created` + delay, 1 ms short of the delay
    expect(await processJob(services, backend, queued.id)).toBe('deferred');
    expect(services.workQueues.standard.sent).toEqual([{ message: { job_id: queued.id }, delaySeconds: 1 }]);
    expect(await job(queued.id)).toMatchObject({ status: 'queued' });
  });
});

describe('expiry', () => {
  it('a job still queued past its queue timeout expires, its reservation released, and announces job.failed', async () => {
    const balance = await services.accounts.getBalance(org.organization.id, false);
    const queued = await admitted(org.testKey);
    services.clock.advance((queued.queue_deadline - queued.created) * 1000);
    expect(await sweepDueJobs(services)).toEqual({ expired: 1, redriven: 0, failed: 0, leftForNextRun: false });
    expect(await job(queued.id)).toMatchObject({
      status: 'expired',
      error: { code: 'job_expired' },
      credits: { charged: 0 },
    });
    expect(await services.accounts.getBalance(org.organization.id, false)).toBe(balance);
    expect(
      (await services.webhooks.listEvents({ orgId: org.organization.id, limit: 10 })).items.map((event) => event.type),
    ).toEqual(['job.failed']);
    expect(await processJob(services, backend, queued.id)).toBe('already_done');
    await expectMoneyInvariants(services, org.organization.id, false);
  });

  it('a crash just before the expiry commits changes nothing (the sweep logs it and goes on); the next sweep expires it', async () => {
    const queued = await admitted(org.testKey);
    services.clock.advance((queued.queue_deadline - queued.created) * 1000);
    faults.arm('expiry.before_commit');
    expect(await sweepDueJobs(services)).toEqual({ expired: 0, redriven: 0, failed: 1, leftForNextRun: false });
    expect(faults.fired).toBe(true);
    expect((await job(queued.id)).status).toBe('queued');
    expect(await sweepDueJobs(services)).toEqual({ expired: 1, redriven: 0, failed: 0, leftForNextRun: false });
    await expectMoneyInvariants(services, org.organization.id, false);
  });
});

describe('a live job', () => {
  it('is handed to the inference plane and marked processing; while the plane refuses it, it stays queued', async () => {
    services.inferencePlane.accepts = false;
    const refused = await admitted(org.liveKey);
    expect(await processJob(services, backend, refused.id)).toBe('left_queued');
    expect((await job(refused.id)).status).toBe('queued');
    services.inferencePlane.accepts = true;
    expect(await processJob(services, backend, refused.id)).toBe('handed_to_inference_plane');
    expect(await job(refused.id)).toMatchObject({ status: 'processing', model_version: expect.any(String) });
    expect(services.inferencePlane.submitted).toEqual([refused.id, refused.id]);
    await expectMoneyInvariants(services, org.organization.id, true);
  });
});
