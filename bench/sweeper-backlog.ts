import '../local/quiet-warnings.js';
import { randomUUID } from 'node:crypto';
import { createOrganization } from '../lambdas/domain/access/organizations.js';
import { SWEEP_CONCURRENCY } from '../lambdas/domain/jobs/processing.js';
import { epochSeconds } from '../lambdas/domain/kernel/clock.js';
import { timeOrderedId } from '../lambdas/domain/kernel/ids.js';
import { sweepOnce } from '../lambdas/domain/sweeper/sweep.js';
import { batchLineReader } from '../lambdas/http/inference/batch-line.js';
import { STOP_BEFORE_TIMEOUT_MS } from '../lambdas/workers/sweeper.js';
import { liveJobRecord } from '../test/support/live-job.js';
import { startBenchRuntime } from './bench-runtime.js';

/**
 * `npm run bench:sweeper`: how long one sweeper run takes to drive a backlog of due jobs on the
 * local stand-ins (DynamoDB Local, the S3/SQS stand-in), as the scheduled function runs it: under
 * its lease, 16 at a time, with the working time a 60 s function has before it stops reading
 * (docs/internals/operations.md, "The sweeper"). The backlog: test-mode jobs queued a minute ago whose work
 * message was lost, so each is re-driven (its re-drive time moved on, its message sent again).
 * The worker is paused so the figure is the sweep's own, not the jobs' processing.
 */
const JOBS = Number(process.env.BENCH_SWEEPER_JOBS ?? 1000);
const FUNCTION_TIMEOUT_MS = 60_000;

const { runtime, stop } = await startBenchRuntime({ workerPaused: true });
try {
  const { services } = runtime;
  const { organization } = await createOrganization(services, {
    name: `sweeper-${randomUUID().slice(0, 6)}`,
    plan: 'enterprise',
  });
  const now = epochSeconds(services.clock);
  const jobs = Array.from({ length: JOBS }, (_, n) =>
    liveJobRecord(timeOrderedId('job', services.clock.nowMs() - 60_000), {
      org_id: organization.id,
      livemode: false,
      created: now - 60,
      redrive_at: now - 30 + (n % 30),
      queue_deadline: now + 900,
    }),
  );
  for (let i = 0; i < jobs.length; i += 25)
    await services.uow.commit(jobs.slice(i, i + 25).map((job) => ({ kind: 'createJob' as const, job })));

  const started = Date.now();
  const outcome = await sweepOnce(services, batchLineReader(services), {
    leaseMs: FUNCTION_TIMEOUT_MS,
    goOn: () => Date.now() - started < FUNCTION_TIMEOUT_MS - STOP_BEFORE_TIMEOUT_MS,
  });
  const tookMs = Date.now() - started;
  if (!outcome) throw new Error('the sweeper lease was held: nothing swept');
  if (outcome.redriven !== JOBS || outcome.failed)
    throw new Error(`expected ${JOBS} jobs re-driven, got ${JSON.stringify(outcome)}`);

  console.log(`## Sweeper backlog (local stand-ins, ${JOBS} due test-mode jobs, ${SWEEP_CONCURRENCY} at a time)`);
  console.log(
    `one run: ${tookMs} ms · ${Math.round((JOBS / tookMs) * 60_000)} jobs a minute · left for the next run: ${outcome.leftForNextRun}`,
  );
} finally {
  await stop();
}
