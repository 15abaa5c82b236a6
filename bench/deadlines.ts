import '../local/quiet-warnings.js';
import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { createOrganization } from '../lambdas/domain/access/organizations.js';
import type { WriteOp } from '../lambdas/domain/ports/transactions.js';
import { samplePng } from './admission-floor.js';
import { startBenchRuntime } from './bench-runtime.js';
import { percentile } from './stats.js';

/**
 * `npm run bench:deadlines`: how late a Svc-Deadline expiry lands on the local runtime (the timer
 * is a delayed message on the fast work queue, docs/internals/deadlines.md). Jobs steered `slow` (3 s queued,
 * then 3 s processing) get deadlines of 1 to 4 s, so some expire queued and some while processing;
 * each expiry's moment is taken when its settlement transaction commits and compared with the
 * deadline (`deadline_at_ms`: the deadline's seconds after the job's creation, to the millisecond). The sweeper runs every second, as under `npm start`;
 * it does not list these jobs before their re-drive time, a minute away, so the timers do the work.
 */
const JOBS = Number(process.env.BENCH_DEADLINE_JOBS ?? 20);

// the sweeper every second, as under `npm start`
const { runtime, stop } = await startBenchRuntime({ sweepIntervalMs: 1000, config: { slowScenarioSeconds: 3 } });
try {
  const { services } = runtime;
  const { testKey } = await createOrganization(services, {
    name: `deadlines-${randomUUID().slice(0, 6)}`,
    plan: 'enterprise',
    startingCredits: { live: 0, test: 1_000_000 },
  });
  const expiredAt = new Map<string, number>();
  const commit = services.uow.commit.bind(services.uow);
  services.uow.commit = async (ops: readonly WriteOp[]) => {
    await commit(ops);
    const now = Date.now();
    for (const op of ops) if (op.kind === 'updateJob' && op.set.status === 'expired') expiredAt.set(op.jobId, now);
  };

  const jobs: { id: string; deadline: number }[] = [];
  for (let i = 0; i < JOBS; i++) {
    const deadline = 1 + (i % 4);
    const form = new FormData();
    form.append('image', new Blob([samplePng(i)], { type: 'image/png' }), `deadline-${i}.png`);
    const response = await fetch(`${runtime.baseUrl}/v1/vehicle.analyze`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${testKey}`, 'X-Svc-Test-Scenario': 'slow', 'Svc-Deadline': String(deadline) },
      body: form,
    });
    const body = (await response.json()) as { id: string };
    if (response.status !== 202) throw new Error(`admission answered ${response.status}: ${JSON.stringify(body)}`);
    jobs.push({ id: body.id, deadline });
    // spread the admissions over the second, so deadlines fall at every fraction of it
    await delay(137);
  }
  const until = Date.now() + 30_000;
  while (jobs.some((job) => !expiredAt.has(job.id)) && Date.now() < until) await delay(50);

  const late: number[] = [];
  const wholeSeconds: number[] = [];
  let wasProcessing = 0;
  for (const job of jobs) {
    const record = (await services.jobs.get(job.id))!;
    if (record.status !== 'expired' || record.error?.code !== 'deadline_exceeded')
      throw new Error(`${job.id} ended ${record.status} ${record.error?.code}`);
    late.push(expiredAt.get(job.id)! - record.deadline_at_ms!);
    wholeSeconds.push(record.completed_at! - record.created - job.deadline);
    if (record.started_at !== null) wasProcessing += 1;
  }
  const sorted = [...late].sort((a, b) => a - b);
  console.log(
    `## Deadline expiry lateness (local runtime, ${JOBS} slow jobs, deadlines 1–4 s; ${wasProcessing} expired while processing, ${JOBS - wasProcessing} while queued)`,
  );
  console.log(`after the deadline: min ${sorted[0]} ms · p50 ${percentile(sorted, 50)} ms · max ${sorted.at(-1)} ms`);
  console.log(
    `completed_at − created − deadline (whole seconds, what a client sees): max ${Math.max(...wholeSeconds)} s`,
  );
} finally {
  await stop();
}
