import { describe, expect, it } from 'vitest';
import { ArmedFault } from '../../../lambdas/domain/kernel/faults.js';
import {
  createBatchOf,
  expectCountsAddUp,
  expectEveryLineOnce,
  finishedBatch,
  outputLines,
  vin,
} from '../../support/batches.js';
import { call, eventually } from '../../support/http.js';
import { expectMoneyInvariants } from '../../support/invariants.js';
import { sharedTestService } from '../../support/service.js';

/** A batch canceled mid-way releases the rest; a driver that dies mid-batch loses no line and admits none twice (docs/internals/batches.md). */
const STARTING = 100_000;

describe('canceling a batch mid-way', () => {
  // the worker is paused: every admitted job stays queued until canceled
  const svc = sharedTestService({
    plan: 'enterprise',
    workerPaused: true,
    startingCredits: { live: 0, test: STARTING },
  });

  it('stops admitting, cancels the queued jobs and releases every reservation', async () => {
    const total = 400;
    const created = await createBatchOf(
      svc.baseUrl,
      svc.org.testKey,
      'pricing.vehicle',
      Array.from({ length: total }, (_, n) => ({ custom_id: `c-${n}`, params: { vin: vin(n) } })),
    );
    expect(created.status).toBe(202);
    const id = created.body.id as string;
    // some lines admitted, not all
    await eventually(async () => {
      const batch = (await call(svc.baseUrl, 'GET', `/v1/batches/${id}`, { key: svc.org.testKey })).body;
      return batch.credits.reserved > 0;
    });
    const canceled = await call(svc.baseUrl, 'POST', `/v1/batches/${id}/cancel`, { key: svc.org.testKey });
    expect(canceled.status).toBe(200);
    expectCountsAddUp(canceled.body);
    const again = await call(svc.baseUrl, 'POST', `/v1/batches/${id}/cancel`, { key: svc.org.testKey });
    expect(again.status).toBe(200);

    const batch = await finishedBatch(svc.baseUrl, svc.org.testKey, id);
    expect(batch.status).toBe('canceled');
    expect(batch.counts).toEqual({ total, queued: 0, processing: 0, succeeded: 0, failed: 0, canceled: total });
    expect(batch.credits).toEqual({ reserved: 0, charged: 0 });
    const orgId = svc.org.organization.id;
    const { jobs } = await expectEveryLineOnce(svc.services, orgId, id, total);
    expect(jobs.length).toBeLessThan(total);
    expect(jobs.every((job) => job.status === 'canceled')).toBe(true);
    expect(await svc.services.accounts.getBalance(orgId, false)).toBe(STARTING);
    await expectMoneyInvariants(svc.services, orgId, false);
    const output = await outputLines(batch.output_file.url);
    expect(output.map((entry) => entry.custom_id)).toEqual(Array.from({ length: total }, (_, n) => `c-${n}`));
    expect(output.every((entry) => entry.status === 'canceled')).toBe(true);
  }, 120_000);
});

describe('a driver that dies mid-batch', () => {
  const fault = new ArmedFault();
  const svc = sharedTestService({
    plan: 'enterprise',
    faults: fault,
    config: { batchLeaseSeconds: 2 },
    startingCredits: { live: 0, test: STARTING },
  });

  it('is taken over by the sweeper from its cursor: every line ends as a job or a failed line exactly once', async () => {
    const total = 300;
    const lines = Array.from({ length: total }, (_, n) =>
      n % 10 === 0 ? { custom_id: `k-${n}`, params: {} } : { custom_id: `k-${n}`, params: { vin: vin(n) } },
    );
    fault.arm('batch.after_group');
    const created = await createBatchOf(svc.baseUrl, svc.org.testKey, 'pricing.vehicle', lines);
    expect(created.status).toBe(202);
    const id = created.body.id as string;
    await eventually(async () => fault.fired);
    // the dead driver's lease runs out; the sweeper takes the batch over (the clock moves instead of the test waiting)
    const stalled = (await call(svc.baseUrl, 'GET', `/v1/batches/${id}`, { key: svc.org.testKey })).body;
    expect(stalled.status).toBe('running');
    svc.clock.advance(5_000);
    await eventually(async () => ((await svc.sweeper.sweep())?.batches ?? 0) > 0);

    const batch = await finishedBatch(svc.baseUrl, svc.org.testKey, id);
    expect(batch.status).toBe('succeeded');
    const valid = total - total / 10;
    expect(batch.counts).toEqual({
      total,
      queued: 0,
      processing: 0,
      succeeded: valid,
      failed: total - valid,
      canceled: 0,
    });
    const orgId = svc.org.organization.id;
    const { lines: recorded, jobs } = await expectEveryLineOnce(svc.services, orgId, id, total);
    expect(recorded).toHaveLength(total);
    expect(jobs).toHaveLength(valid);
    expect(await svc.services.accounts.getBalance(orgId, false)).toBe(STARTING - valid * 10);
    await expectMoneyInvariants(svc.services, orgId, false);
    const output = await outputLines(batch.output_file.url);
    expect(output.map((entry) => entry.custom_id)).toEqual(lines.map((line) => line.custom_id));
  }, 120_000);
});
