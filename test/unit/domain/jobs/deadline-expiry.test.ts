import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { authenticateApiKey } from '../../../../lambdas/domain/access/api-keys.js';
import { CATALOGUE } from '../../../../lambdas/domain/catalogue/catalogue.js';
import { admit } from '../../../../lambdas/domain/jobs/admission.js';
import { onDeadlineTimer } from '../../../../lambdas/domain/jobs/deadline-expiry.js';
import { MAX_TIMER_DELAY_SECONDS, timerDelaySeconds } from '../../../../lambdas/domain/jobs/deadline-timer.js';
import type { JobRecord } from '../../../../lambdas/domain/jobs/job.js';
import { processJob, sweepDueJobs } from '../../../../lambdas/domain/jobs/processing.js';
import { timeOfId } from '../../../../lambdas/domain/kernel/ids.js';
import { sandboxBackend } from '../../../../lambdas/sandbox/backend.js';
import { loadSandboxModel } from '../../../../lambdas/sandbox/load.js';
import { consumeWorkMessage } from '../../../../lambdas/workers/work-queue-consumer.js';
import { type InMemoryWorld, inMemoryWorld } from '../../../support/in-memory/services.js';
import { expectMoneyInvariants } from '../../../support/invariants.js';

// The Svc-Deadline timer (docs/internals/deadlines.md): one delayed message per job, sent again while the
// deadline lies beyond SQS's 15-minute delay; the worker and the sweeper expire a job they find past it.

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('a car')]);

let { services, org } = {} as InMemoryWorld;

beforeAll(async () => {
  await loadSandboxModel('plate.read');
});

beforeEach(async () => {
  ({ services, org } = await inMemoryWorld());
});

async function admitted(deadlineSeconds: number | null, secret = org.testKey): Promise<JobRecord> {
  const admission = await admit(services, {
    requestId: 'req_test',
    endpoint: CATALOGUE['plate.read'],
    key: { principal: await authenticateApiKey(services, secret, { provisional: true }), secret },
    scenario: undefined,
    idempotency: null,
    request: {
      kind: 'job',
      wait: false,
      params: {},
      files: [{ filename: 'car.png', contentType: 'image/png', bytes: PNG }],
      inputRefs: [],
      inputRefsParam: 'input_ref',
      deadlineSeconds,
    },
  });
  if (admission.kind !== 'admitted') throw new Error(`not admitted: ${JSON.stringify(admission)}`);
  return (await services.jobs.get(admission.job.id))!;
}

const timers = () => services.workQueues.fast.sent.filter(({ message }) => message.timer === 'deadline');

describe('the timer', () => {
  it('is one delayed message on the fast lane, due at the deadline; a job without a deadline sends none', async () => {
    const job = await admitted(30);
    expect(job).toMatchObject({ deadline_seconds: 30, deadline_at_ms: timeOfId(job.id) + 30_000 });
    expect(timers()).toEqual([
      {
        message: { job_id: job.id, timer: 'deadline' },
        delaySeconds: timerDelaySeconds(job.deadline_at_ms!, services.clock.nowMs()),
      },
    ]);
    expect(timers()[0]!.delaySeconds).toBeGreaterThanOrEqual(29);
    expect(timers()[0]!.delaySeconds).toBeLessThanOrEqual(30);
    services.workQueues.fast.sent.length = 0;
    const plain = await admitted(null);
    expect(plain.deadline_at_ms).toBeUndefined();
    expect(timers()).toEqual([]);
  });

  it('rounds up, never firing before the deadline, and caps the delay at SQS’s 900 s', () => {
    expect(timerDelaySeconds(100_000, 98_999)).toBe(2);
    expect(timerDelaySeconds(100_000, 99_001)).toBe(1);
    expect(timerDelaySeconds(100_000, 100_000)).toBe(0);
    expect(timerDelaySeconds(100_000 + 3_600_000, 100_000)).toBe(MAX_TIMER_DELAY_SECONDS);
  });

  it('an hour away: re-sent every 15 minutes until the deadline, then the job expires', async () => {
    const job = await admitted(3600);
    const delays: number[] = [timers().at(-1)!.delaySeconds];
    for (let hop = 0; hop < 3; hop++) {
      services.clock.advance(delays.at(-1)! * 1000);
      expect(
        await consumeWorkMessage(
          services,
          sandboxBackend(services),
          JSON.stringify({ job_id: job.id, timer: 'deadline' }),
        ),
      ).toBe('rearmed');
      delays.push(timers().at(-1)!.delaySeconds);
    }
    expect(delays.slice(0, 3)).toEqual([900, 900, 900]);
    services.clock.advance(delays.at(-1)! * 1000);
    expect(await onDeadlineTimer(services, job.id)).toBe('expired');
    expect(await services.jobs.get(job.id)).toMatchObject({
      status: 'expired',
      error: { code: 'deadline_exceeded' },
      credits: { charged: 0 },
    });
    await expectMoneyInvariants(services, org.organization.id, false);
  });

  it('a timer for a settled job changes nothing', async () => {
    const job = await admitted(5);
    expect(await processJob(services, sandboxBackend(services), job.id)).toBe('settled');
    const settled = await services.jobs.get(job.id);
    services.clock.advance(10_000);
    expect(await onDeadlineTimer(services, job.id)).toBe('already_done');
    expect(await services.jobs.get(job.id)).toEqual(settled);
  });
});

describe('the backstops of a lost timer', () => {
  it('the worker expires a job it receives past its deadline instead of running it', async () => {
    const job = await admitted(2);
    services.clock.advance(3000);
    expect(await processJob(services, sandboxBackend(services), job.id)).toBe('expired');
    expect(await services.jobs.get(job.id)).toMatchObject({
      status: 'expired',
      error: { code: 'deadline_exceeded' },
      started_at: null,
    });
  });

  it('the sweeper expires a job it re-drives past its deadline, and arms the timer again for one not yet due', async () => {
    const late = await admitted(30);
    const early = await admitted(3600);
    services.workQueues.fast.sent.length = 0;
    services.clock.advance((services.config.redriveAfterSeconds + 1) * 1000);
    expect(await sweepDueJobs(services)).toMatchObject({ expired: 1 });
    expect(await services.jobs.get(late.id)).toMatchObject({ status: 'expired', error: { code: 'deadline_exceeded' } });
    expect(timers().map(({ message }) => message.job_id)).toEqual([early.id]);
    await expectMoneyInvariants(services, org.organization.id, false);
  });

  it('a live job the plane holds is expired and the plane told to stop', async () => {
    const live = await admitted(2, org.liveKey);
    expect(await processJob(services, sandboxBackend(services), live.id)).toBe('handed_to_inference_plane');
    services.clock.advance(2000);
    expect(await onDeadlineTimer(services, live.id)).toBe('expired');
    expect(services.inferencePlane.canceled).toEqual([live.id]);
    await expectMoneyInvariants(services, org.organization.id, true);
  });
});
