import { beforeEach, describe, expect, it } from 'vitest';
import { CATALOGUE, reservationFor } from '../../../../lambdas/domain/catalogue/catalogue.js';
import { newJob, newJobId, reservationOps } from '../../../../lambdas/domain/jobs/admission.js';
import type { JobRecord } from '../../../../lambdas/domain/jobs/job.js';
import { cancelJob } from '../../../../lambdas/domain/jobs/processing.js';
import { settleJob, type WorkOutcome } from '../../../../lambdas/domain/jobs/settlement.js';
import { InjectedFault } from '../../../../lambdas/domain/kernel/faults.js';
import { redriveWebhooks } from '../../../../lambdas/domain/webhooks/delivery.js';
import { createWebhookEndpoint } from '../../../../lambdas/domain/webhooks/endpoints.js';
import { type InMemoryWorld, inMemoryWorld } from '../../../support/in-memory/services.js';
import { expectMoneyInvariants } from '../../../support/invariants.js';

// settleJob on in-memory ports: what a job is charged, what is given back, and the outbox event.

let { services, faults, org } = {} as InMemoryWorld;

beforeEach(async () => {
  ({ services, faults, org } = await inMemoryWorld());
});

const ASSET = { filename: null, content_type: 'image/jpeg', size_bytes: 10, sha256: 'ab', object_key: 'inputs/x' };

/** A processing job of `damage.detect` (priced per image) over `images` images, its reservation committed. */
async function processingJob(images = 3): Promise<JobRecord> {
  const principal = { orgId: org.organization.id, apiKeyId: 'key_test', livemode: false, scopes: ['B' as const] };
  const inputs = Array.from({ length: images }, (_, index) => ({ ...ASSET, index }));
  const job = newJob(services, {
    principal,
    endpoint: CATALOGUE['damage.detect'],
    jobId: newJobId(services),
    params: {},
    inputs,
    scenario: null,
  });
  await services.uow.commit(reservationOps(services, job));
  return (await services.jobs.markProcessing(job.id, job.created, 'model@1', job.created + 60))!;
}

const succeeded = (billableUnits: number): WorkOutcome => ({
  status: 'succeeded',
  result: { damages: [] },
  files: {},
  billableUnits,
});
const balance = () => services.accounts.getBalance(org.organization.id, false);
const ledgerOf = async (jobId: string) =>
  (await services.accounts.listLedger({ orgId: org.organization.id, limit: 100 })).items
    .filter((entry) => entry.job_id === jobId)
    .map((entry) => [entry.kind, entry.amount]);

describe('settling a job', () => {
  it('charges what the model billed and gives the rest of the reservation back', async () => {
    const before = await balance();
    const job = await processingJob(3);
    const reserved = reservationFor(CATALOGUE['damage.detect'], 3);
    expect(await balance()).toBe(before - reserved);
    const settled = await settleJob(services, job, succeeded(2));
    const charged = CATALOGUE['damage.detect'].price * 2;
    expect(settled).toMatchObject({ status: 'succeeded', credits: { reserved, charged }, billable_units: 2 });
    expect(await balance()).toBe(before - charged);
    expect((await ledgerOf(job.id)).sort()).toEqual([
      ['commit', 0],
      ['release', reserved - charged],
      ['reserve', -reserved],
    ]);
    await expectMoneyInvariants(services, org.organization.id, false);
  });

  it('refunds the whole reservation of a failed job and charges nothing', async () => {
    const before = await balance();
    const job = await processingJob(2);
    const settled = await settleJob(services, job, {
      status: 'failed',
      error: { type: 'processing_error', code: 'model_inference_failed', message: 'no' },
    });
    expect(settled).toMatchObject({
      status: 'failed',
      credits: { charged: 0 },
      error: { code: 'model_inference_failed' },
    });
    expect(await balance()).toBe(before);
    const [usage] = await services.usage.list({ orgId: org.organization.id, from: '2000-01-01', to: '2100-01-01' });
    expect(usage).toMatchObject({ requests: 1, failed: 1, succeeded: 0, credits_charged: 0 });
    await expectMoneyInvariants(services, org.organization.id, false);
  });

  it('settles once: a second settlement (a retried message, a late callback) changes nothing', async () => {
    const job = await processingJob(1);
    expect(await settleJob(services, job, succeeded(1))).not.toBeNull();
    const after = await balance();
    expect(
      await settleJob(services, job, {
        status: 'failed',
        error: { type: 'processing_error', code: 'model_inference_failed', message: 'late' },
      }),
    ).toBeNull();
    expect(await balance()).toBe(after);
    expect((await services.webhooks.listEvents({ orgId: org.organization.id, limit: 10 })).items).toHaveLength(1);
    await expectMoneyInvariants(services, org.organization.id, false);
  });

  it('a crash inside the settlement transaction changes nothing; the retry settles', async () => {
    const job = await processingJob(1);
    const before = await balance();
    const down = { ...services, uow: { commit: () => Promise.reject(new InjectedFault('the database went away')) } };
    await expect(settleJob(down, job, succeeded(1))).rejects.toBeInstanceOf(InjectedFault);
    expect((await services.jobs.get(job.id))!.status).toBe('processing');
    expect(await balance()).toBe(before);
    expect(await settleJob(services, job, succeeded(1))).not.toBeNull();
    await expectMoneyInvariants(services, org.organization.id, false);
  });

  it('cancels a queued job with its whole reservation released, and again answers the canceled job', async () => {
    const before = await balance();
    const principal = { orgId: org.organization.id, apiKeyId: 'key_test', livemode: false, scopes: ['D' as const] };
    const job = newJob(services, {
      principal,
      endpoint: CATALOGUE['pricing.vehicle'],
      jobId: newJobId(services),
      params: {},
      inputs: [],
      scenario: null,
    });
    await services.uow.commit(reservationOps(services, job));
    expect(await cancelJob(services, job)).toMatchObject({ status: 'canceled', credits: { charged: 0 } });
    expect(await cancelJob(services, (await services.jobs.get(job.id))!)).toMatchObject({ status: 'canceled' });
    expect(await balance()).toBe(before);
    await expectMoneyInvariants(services, org.organization.id, false);
  });
});

describe('the outbox', () => {
  it('with an endpoint listening, writes the event to be dispatched and queues it; a lost send is re-sent by the sweeper', async () => {
    await createWebhookEndpoint(services, org.organization.id, {
      url: 'https://hooks.example.com/ais',
      enabled_events: ['job.succeeded'],
    });
    const lost = { ...services, webhookQueue: { send: () => Promise.reject(new InjectedFault('queue down')) } };
    const job = await processingJob(1);
    await settleJob(lost, job, succeeded(1));
    const [event] = (await services.webhooks.listEvents({ orgId: org.organization.id, limit: 10 })).items;
    expect((await services.webhooks.getEvent(event!.id))!.dispatched).toBe(false);
    expect(services.webhookQueue.sent).toHaveLength(0);
    expect(await redriveWebhooks(services)).toEqual({ events: 0, deliveries: 0 });
    services.clock.advance(61_000);
    expect(await redriveWebhooks(services)).toEqual({ events: 1, deliveries: 0 });
    expect(services.webhookQueue.drain()).toEqual([{ event_id: event!.id }]);
    // postponed by a grace period: the next sweep does not send it again at once
    expect(await redriveWebhooks(services)).toEqual({ events: 0, deliveries: 0 });
  });

  it('a crash right after the settlement commits leaves the settled job and its event for the sweeper', async () => {
    await createWebhookEndpoint(services, org.organization.id, {
      url: 'https://hooks.example.com/ais',
      enabled_events: ['job.succeeded'],
    });
    const job = await processingJob(1);
    faults.arm('settlement.after_commit');
    await expect(settleJob(services, job, succeeded(1))).rejects.toBeInstanceOf(InjectedFault);
    expect((await services.jobs.get(job.id))!.status).toBe('succeeded');
    expect(services.webhookQueue.sent).toHaveLength(0);
    services.clock.advance(61_000);
    expect(await redriveWebhooks(services)).toEqual({ events: 1, deliveries: 0 });
    await expectMoneyInvariants(services, org.organization.id, false);
  });
});
