import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { createOrganization, type SeededOrganization } from '../../../lambdas/domain/access/organizations.js';
import { MAX_EXECUTION_ATTEMPTS } from '../../../lambdas/domain/inspections/supervision.js';
import { AdjustableClock } from '../../../lambdas/domain/kernel/clock.js';
import { type Runtime, startRuntime } from '../../../local/runtime.js';
import { eventually } from '../../support/http.js';
import { STAGE_NAMES, submitInspection, watchInspection } from '../../support/inspections.js';
import { expectMoneyInvariants } from '../../support/invariants.js';

/** Two runtimes on one table, one after the other: what `npm start`, stopped and started again, does. */
const running: Runtime[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((runtime) => runtime.stop()));
});

async function start(prefix: string): Promise<Runtime> {
  const runtime = await startRuntime({
    standIns: inject('standIns'),
    port: 0,
    resourcePrefix: prefix,
    clock: new AdjustableClock(),
    config: { slowScenarioSeconds: 1 },
    sweepIntervalMs: 0,
  });
  running.push(runtime);
  return runtime;
}

async function stop(runtime: Runtime): Promise<void> {
  running.splice(running.indexOf(runtime), 1);
  await runtime.stop();
}

/** Starts an inspection whose stages are slow (1 s queued + 1 s processing each) and stops the runtime once two are recorded. */
async function interruptedInspection(): Promise<{
  prefix: string;
  org: SeededOrganization;
  id: string;
  balanceBefore: number;
}> {
  const prefix = `t${randomBytes(5).toString('hex')}`;
  const first = await start(prefix);
  const org = await createOrganization(first.services, { name: 'Restart Org' });
  const balanceBefore = await first.services.accounts.getBalance(org.organization.id, false);
  const created = await submitInspection(first.baseUrl, { key: org.testKey, scenario: 'slow', seed: 'restart' });
  expect(created.status).toBe(202);
  await eventually(
    async () => ((await first.services.jobs.get(created.body.id))?.stages_recorded ?? 0) >= 2,
    30_000,
    50,
  );
  await stop(first);
  return { prefix, org, id: created.body.id, balanceBefore };
}

describe('inspections across a restart of the local runtime', () => {
  it('a restart mid-inspection resumes it from the recorded stages: it succeeds, each stage run once, billed once', async () => {
    const { prefix, org, id, balanceBefore } = await interruptedInspection();
    const second = await start(prefix);
    const stopped = (await second.services.jobs.get(id))!;
    expect(stopped.status).toBe('processing');
    expect(stopped.stages_recorded).toBeGreaterThanOrEqual(2);
    expect(stopped.stages_recorded).toBeLessThan(8);
    const recordedBefore = stopped.stages!.filter((s) => s.recorded).map((s) => s.job_id);

    const { record } = await watchInspection(second.services, id, 60_000);
    expect(record.status).toBe('succeeded');
    expect(record.execution_attempt).toBe(1);
    expect(record.stages!.map((s) => s.status)).toEqual(STAGE_NAMES.map(() => 'succeeded'));
    // the stages recorded before the restart kept their jobs; no stage ran twice
    expect(record.stages!.slice(0, recordedBefore.length).map((s) => s.job_id)).toEqual(recordedBefore);
    const children = await second.services.jobs.list({ orgId: org.organization.id, livemode: false, limit: 100 });
    expect(children.items.filter((job) => job.parent_job_id === id)).toHaveLength(8);
    expect(record.credits).toEqual({ reserved: 150, charged: 150 });
    expect(await second.services.accounts.getBalance(org.organization.id, false)).toBe(balanceBefore - 150);
    await expectMoneyInvariants(second.services, org.organization.id, false);
  });

  it('an inspection whose pipeline was lost too often is failed cleanly on restart: recorded stages kept, the rest canceled, nothing charged', async () => {
    const { prefix, org, id, balanceBefore } = await interruptedInspection();
    // as if earlier restarts had already resumed it: the next loss is one too many
    const writer = await startRuntime({
      standIns: inject('standIns'),
      port: 0,
      resourcePrefix: prefix,
      sweepIntervalMs: 0,
      workerPaused: true,
    });
    running.push(writer);
    await writer.services.uow.commit([
      {
        kind: 'updateJob',
        jobId: id,
        expectStatus: ['processing'],
        set: { execution_attempt: MAX_EXECUTION_ATTEMPTS - 1 },
        leavesQueue: false,
      },
    ]);
    await stop(writer);

    const third = await start(prefix);
    const record = await eventually(
      async () => {
        const job = await third.services.jobs.get(id);
        return job?.status === 'failed' ? job : null;
      },
      30_000,
      50,
    );
    expect(record.credits).toEqual({ reserved: 150, charged: 0 });
    expect(record.error).toMatchObject({ type: 'processing_error' });
    expect(record.stages!.every((s) => s.recorded && s.completed_at !== null)).toBe(true);
    expect(record.stages!.slice(0, 2).map((s) => s.status)).toEqual(['succeeded', 'succeeded']);
    expect(record.stages![7]!.status).toBe('canceled');
    expect(await third.services.accounts.getBalance(org.organization.id, false)).toBe(balanceBefore);
    // nothing is left processing: every stage job settled too
    const jobs = await third.services.jobs.list({ orgId: org.organization.id, livemode: false, limit: 100 });
    await eventually(
      async () => {
        const current = await Promise.all(jobs.items.map((job) => third.services.jobs.get(job.id)));
        return current.every((job) => job && job.status !== 'processing' && job.status !== 'queued');
      },
      10_000,
      50,
    );
    await expectMoneyInvariants(third.services, org.organization.id, false);
  });
});
