import { describe, expect, it } from 'vitest';
import { processJob } from '../../../lambdas/domain/jobs/processing.js';
import { ArmedFault, type FaultPoint } from '../../../lambdas/domain/kernel/faults.js';
import { sandboxBackend } from '../../../lambdas/sandbox/backend.js';
import { call, eventually, formWith, imageFile } from '../../support/http.js';
import { expectMoneyInvariants } from '../../support/invariants.js';
import { sharedTestService } from '../../support/service.js';

describe('200 concurrent admissions against a balance that covers 37', () => {
  const svc = sharedTestService({ plan: 'enterprise', workerPaused: true, startingCredits: { live: 0, test: 37 * 2 } });

  it('admits exactly 37, refuses the rest with 402, and never lets the balance go negative', async () => {
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        call(svc.baseUrl, 'POST', '/v1/plate.read', {
          key: svc.org.testKey,
          form: formWith('image', [imageFile(`c${i}`)]),
        }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 202)).toHaveLength(37);
    expect(statuses.filter((s) => s === 402)).toHaveLength(163);
    const orgId = svc.org.organization.id;
    expect(await svc.services.accounts.getBalance(orgId, false)).toBe(0);
    expect((await svc.services.jobs.list({ orgId, livemode: false, limit: 100 })).items).toHaveLength(37);
    await expectMoneyInvariants(svc.services, orgId, false);
  });
});

describe('a crash between any two steps loses nothing, and the next retry or sweep completes the work', () => {
  const faults = new ArmedFault();
  const svc = sharedTestService({ faults });

  const orgId = () => svc.org.organization.id;
  const submit = () =>
    call(svc.baseUrl, 'POST', '/v1/plate.read', { key: svc.org.testKey, form: formWith('image', [imageFile()]) });
  const jobStatus = async (id: string) => (await svc.services.jobs.get(id))?.status;
  const latestJobId = async () =>
    (await svc.services.jobs.list({ orgId: orgId(), livemode: false, limit: 1 })).items[0]!.id;
  /** the sweeper re-sends unfinished jobs once their re-drive time has passed */
  const sweepLater = async () => {
    svc.clock.advance(61_000);
    await svc.sweeper.sweep();
  };

  it.each<FaultPoint>(['admission.after_commit', 'admission.before_answer'])(
    'crash at %s: the job exists with its reservation and completes, the table stream enqueueing it all the same',
    async (point) => {
      faults.arm(point);
      const answer = await submit();
      expect(answer.status).toBe(500);
      const id = await latestJobId();
      await expectMoneyInvariants(svc.services, orgId(), false);
      await eventually(async () => (await jobStatus(id)) === 'succeeded');
      await expectMoneyInvariants(svc.services, orgId(), false);
    },
  );

  it('crash at admission.before_commit: nothing exists', async () => {
    const before = (await svc.services.jobs.list({ orgId: orgId(), livemode: false, limit: 100 })).items.length;
    faults.arm('admission.before_commit');
    expect((await submit()).status).toBe(500);
    expect((await svc.services.jobs.list({ orgId: orgId(), livemode: false, limit: 100 })).items.length).toBe(before);
    await expectMoneyInvariants(svc.services, orgId(), false);
  });

  it.each<FaultPoint>(['processing.after_pick_up', 'processing.after_backend', 'processing.after_settle'])(
    'crash at %s: the job settles exactly once',
    async (point) => {
      faults.arm(point);
      const answer = await submit();
      expect(answer.status).toBe(202);
      if (point !== 'processing.after_settle') {
        await eventually(async () => faults.fired);
        // a test-mode job is picked up and settled by one write: the crash leaves it queued, reserved
        expect(await jobStatus(answer.body.id)).toBe('queued');
        await expectMoneyInvariants(svc.services, orgId(), false);
        await sweepLater();
      }
      await eventually(async () => (await jobStatus(answer.body.id)) === 'succeeded');
      // a redelivered message for the settled job changes nothing
      expect(await processJob(svc.services, sandboxBackend(svc.services), answer.body.id)).toBe('already_done');
      const job = await svc.services.jobs.get(answer.body.id);
      expect(job!.credits).toEqual({ reserved: 2, charged: 2 });
      await expectMoneyInvariants(svc.services, orgId(), false);
    },
  );

  it.each<FaultPoint>(['expiry.before_commit', 'expiry.after_commit'])(
    'crash at %s: the next sweep finishes, the reservation is released once',
    async (point) => {
      // the worker could expire the job itself when it reads the message; here the sweeper must
      svc.worker.pause();
      try {
        const created = await call(svc.baseUrl, 'POST', '/v1/plate.read', {
          key: svc.org.liveKey,
          form: formWith('image', [imageFile()]),
        });
        expect(created.status).toBe(202);
        svc.clock.advance(16 * 60 * 1000);
        faults.arm(point);
        // the crash fails that job's step alone: logged, and the job is left due for the next sweep
        expect(await svc.sweeper.sweep()).toMatchObject({ failed: 1 });
        await svc.sweeper.sweep();
        expect(await jobStatus(created.body.id)).toBe('expired');
        await expectMoneyInvariants(svc.services, orgId(), true);
      } finally {
        svc.worker.resume();
      }
    },
  );
});

describe('a settlement delivered twice charges once', () => {
  const svc = sharedTestService({ workerPaused: true });

  it('two deliveries of the same work message, concurrently and again later', async () => {
    const created = await call(svc.baseUrl, 'POST', '/v1/engine.detect', {
      key: svc.org.testKey,
      form: formWith('audio', [new Blob([Buffer.alloc(4000, 7)], { type: 'audio/wav' })]),
    });
    const backend = sandboxBackend(svc.services);
    const outcomes = await Promise.all([
      processJob(svc.services, backend, created.body.id),
      processJob(svc.services, backend, created.body.id),
    ]);
    expect(outcomes.filter((o) => o === 'settled')).toHaveLength(1);
    expect(await processJob(svc.services, backend, created.body.id)).toBe('already_done');
    const job = await svc.services.jobs.get(created.body.id);
    const entries = (
      await svc.services.accounts.listLedger({ orgId: svc.org.organization.id, livemode: false, limit: 100 })
    ).items.filter((e) => e.job_id === created.body.id);
    expect(entries.filter((e) => e.kind === 'commit')).toHaveLength(1);
    expect(entries.filter((e) => e.kind === 'release').length).toBeLessThanOrEqual(1);
    expect(entries.reduce((sum, e) => sum + e.amount, 0)).toBe(-job!.credits.charged!);
    await expectMoneyInvariants(svc.services, svc.org.organization.id, false);
  });
});
