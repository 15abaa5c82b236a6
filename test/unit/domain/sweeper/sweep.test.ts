import { beforeEach, describe, expect, it } from 'vitest';
import type { LineReader } from '../../../../lambdas/domain/batches/driver.js';
import type { JobRecord } from '../../../../lambdas/domain/jobs/job.js';
import { SWEEP_CONCURRENCY, sweepDueJobs } from '../../../../lambdas/domain/jobs/processing.js';
import { epochSeconds } from '../../../../lambdas/domain/kernel/clock.js';
import { InjectedFault } from '../../../../lambdas/domain/kernel/faults.js';
import { timeOrderedId } from '../../../../lambdas/domain/kernel/ids.js';
import { SWEEPER_LEASE, sweepOnce } from '../../../../lambdas/domain/sweeper/sweep.js';
import { type InMemoryServices, inMemoryServices } from '../../../support/in-memory/services.js';
import { liveJobRecord } from '../../../support/live-job.js';

/**
 * The sweeper (docs/internals/operations.md, "The sweeper"): every due job driven, page after page, at most
 * `SWEEP_CONCURRENCY` at once; a run told to stop leaves the rest to the next; and a run while
 * another holds the sweeper's lease does nothing.
 */
let services: InMemoryServices;
beforeEach(() => {
  services = inMemoryServices();
});

/** No batch is due in these tests: a reader that is never called. */
const noLines: LineReader = () => Promise.reject(new Error('no batch line is read here'));

/** `count` test-mode jobs queued a minute ago whose work message was lost: due now, their deadline far off. */
async function seedDueJobs(count: number): Promise<JobRecord[]> {
  const now = epochSeconds(services.clock);
  const jobs = Array.from({ length: count }, (_, n) =>
    liveJobRecord(timeOrderedId('job', services.clock.nowMs() - 60_000 + n), {
      livemode: false,
      created: now - 60,
      redrive_at: now - 30 + (n % 7),
      queue_deadline: now + 900,
    }),
  );
  for (const job of jobs) await services.uow.commit([{ kind: 'createJob', job }]);
  // the table stream sends each new job's message; then they are lost
  await expect.poll(() => services.workQueues.fast.sent.length).toBe(count);
  services.workQueues.fast.drain();
  return jobs;
}

/** Holds each re-drive's first write open a moment, counting how many are open at once. */
function countConcurrentRedrives(): { peak: () => number } {
  const postpone = services.jobs.postponeRedrive.bind(services.jobs);
  let open = 0;
  let peak = 0;
  services.jobs.postponeRedrive = async (id, redriveAt) => {
    open += 1;
    peak = Math.max(peak, open);
    await new Promise((resolve) => setTimeout(resolve, 2));
    open -= 1;
    return postpone(id, redriveAt);
  };
  return { peak: () => peak };
}

const sentJobIds = () => services.workQueues.fast.sent.map(({ message }) => message.job_id);

describe('a backlog of due jobs', () => {
  it('is driven whole in one run, page after page, each job once, never more than SWEEP_CONCURRENCY at once', async () => {
    const jobs = await seedDueJobs(1000);
    const concurrency = countConcurrentRedrives();

    expect(await sweepDueJobs(services)).toEqual({
      expired: 0,
      redriven: 1000,
      failed: 0,
      leftForNextRun: false,
    });

    expect(sentJobIds().sort()).toEqual(jobs.map((job) => job.id).sort());
    expect(concurrency.peak()).toBe(SWEEP_CONCURRENCY);
    // every job re-driven is looked at again only later: a second run finds nothing due
    expect(await sweepDueJobs(services)).toMatchObject({ redriven: 0 });
  });

  it('stops starting pages once told to, and the next run drives the rest', async () => {
    const jobs = await seedDueJobs(250);
    let pages = 0;

    const first = await sweepDueJobs(services, { goOn: () => pages++ < 1 });

    expect(first).toEqual({ expired: 0, redriven: 100, failed: 0, leftForNextRun: true });
    expect(await sweepDueJobs(services)).toMatchObject({ redriven: 150, leftForNextRun: false });
    expect(sentJobIds().sort()).toEqual(jobs.map((job) => job.id).sort());
  });

  it('a job that fails is logged and left due; the others are driven', async () => {
    const [broken, ...others] = await seedDueJobs(30);
    const postpone = services.jobs.postponeRedrive.bind(services.jobs);
    services.jobs.postponeRedrive = async (id, redriveAt) => {
      if (id === broken!.id) throw new InjectedFault('the table refused this one');
      return postpone(id, redriveAt);
    };

    expect(await sweepDueJobs(services)).toMatchObject({ redriven: 29, failed: 1 });

    expect(sentJobIds().sort()).toEqual(others.map((job) => job.id).sort());
    expect(services.log.lines.some((line) => line.extra?.job_id === broken!.id)).toBe(true);
    services.jobs.postponeRedrive = postpone;
    expect(await sweepDueJobs(services)).toMatchObject({ redriven: 1, failed: 0 });
  });
});

describe('the sweeper lease', () => {
  const limits = { leaseMs: 60_000, goOn: () => true };

  it('a run while another holds the lease does nothing; once it runs out, the next run sweeps', async () => {
    await seedDueJobs(5);
    const now = services.clock.nowMs();
    expect(await services.leases.take(SWEEPER_LEASE, 'the-other-run', now + 60_000, now)).toBe(true);

    expect(await sweepOnce(services, noLines, limits)).toBeNull();
    expect(sentJobIds()).toEqual([]);

    services.clock.advance(60_000);
    expect(await sweepOnce(services, noLines, limits)).toMatchObject({ redriven: 5 });
  });

  it('two runs started together: one sweeps, the other does nothing; the lease is let go after', async () => {
    await seedDueJobs(40);

    const runs = await Promise.all([sweepOnce(services, noLines, limits), sweepOnce(services, noLines, limits)]);

    expect(runs.filter((run) => run === null)).toHaveLength(1);
    expect(runs.find((run) => run !== null)).toMatchObject({ redriven: 40 });
    expect(sentJobIds()).toHaveLength(40);
    // let go at the end: the next run takes it at once
    expect(await sweepOnce(services, noLines, limits)).toMatchObject({ redriven: 0 });
  });
});
