import { randomUUID } from 'node:crypto';
import { createOrganization } from '../lambdas/domain/access/organizations.js';
import { isTerminal } from '../lambdas/domain/jobs/job.js';
import type { WriteOp } from '../lambdas/domain/ports/transactions.js';
import type { Runtime } from '../local/runtime.js';
import { samplePng } from './admission-floor.js';
import { percentile } from './stats.js';

export interface WaitReport {
  calls: number;
  /** from the commit of the settlement transaction to the client reading the 200 */
  settleToAnswerP50: number;
  settleToAnswerP99: number;
  /** the whole `wait=true` call */
  callP50: number;
  backlog: { slowJobs: number; calls: number; callP50: number; callMax: number };
}

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);

function pricingCall(runtime: Runtime, key: string): Promise<Response> {
  return fetch(`${runtime.baseUrl}/v1/pricing.vehicle?wait=true`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ make: 'Volkswagen', model: 'Golf', year: 2019 }),
  });
}

/**
 * `wait=true` on a fast endpoint (`pricing.vehicle`), sequentially: how long after its settlement
 * commits the held call answers. Then the same calls behind a backlog of slow work (jobs steered
 * `slow` on an image endpoint, each holding a worker slot for seconds): with a lane of its own the
 * fast endpoint does not queue behind them.
 */
export async function measureWait(runtime: Runtime, calls = 100, slowJobs = 64): Promise<WaitReport> {
  const { services } = runtime;
  const { testKey } = await createOrganization(services, {
    name: `wait-${randomUUID().slice(0, 6)}`,
    plan: 'enterprise',
    startingCredits: { live: 0, test: 10_000_000 },
  });
  const settledAt = new Map<string, number>();
  const commit = services.uow.commit.bind(services.uow);
  services.uow.commit = async (ops: readonly WriteOp[]) => {
    await commit(ops);
    const now = performance.now();
    for (const op of ops)
      if (op.kind === 'updateJob' && op.set.status && isTerminal(op.set.status)) settledAt.set(op.jobId, now);
  };
  try {
    const gaps: number[] = [];
    const durations: number[] = [];
    for (let i = 0; i < calls; i++) {
      const t0 = performance.now();
      const response = await pricingCall(runtime, testKey);
      const body = (await response.json()) as { id: string; status: string };
      const answered = performance.now();
      if (response.status !== 200) throw new Error(`wait answered ${response.status}: ${JSON.stringify(body)}`);
      durations.push(answered - t0);
      gaps.push(answered - settledAt.get(body.id)!);
    }

    const slow = await Promise.all(
      Array.from({ length: slowJobs }, async (_, i) => {
        const form = new FormData();
        form.append('image', new Blob([samplePng(i)], { type: 'image/png' }), `slow-${i}.png`);
        const response = await fetch(`${runtime.baseUrl}/v1/vehicle.analyze`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${testKey}`, 'X-Svc-Test-Scenario': 'slow' },
          body: form,
        });
        return ((await response.json()) as { id: string }).id;
      }),
    );
    // the fast calls start once the slow jobs are due and hold the standard lane's workers
    await new Promise((resolve) => setTimeout(resolve, services.config.slowScenarioSeconds * 1000 + 200));
    const behind: number[] = [];
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let i = 0; i < 5; i++) {
          const t0 = performance.now();
          const response = await pricingCall(runtime, testKey);
          await response.text();
          if (response.status !== 200) throw new Error(`wait behind the backlog answered ${response.status}`);
          behind.push(performance.now() - t0);
        }
      }),
    );
    for (const id of slow) {
      for (;;) {
        const job = await services.jobs.get(id);
        if (job && isTerminal(job.status)) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    return {
      calls,
      settleToAnswerP50: percentile(sorted(gaps), 50),
      settleToAnswerP99: percentile(sorted(gaps), 99),
      callP50: percentile(sorted(durations), 50),
      backlog: {
        slowJobs,
        calls: behind.length,
        callP50: percentile(sorted(behind), 50),
        callMax: Math.max(...behind),
      },
    };
  } finally {
    services.uow.commit = commit;
  }
}

export function formatWaitReport(report: WaitReport): string {
  const ms = (value: number) => `${value.toFixed(0)} ms`;
  return [
    `settle → answer, ${report.calls} sequential pricing.vehicle?wait=true: p50 ${ms(report.settleToAnswerP50)} (goal <= 100 ms, ratio ${(report.settleToAnswerP50 / 100).toFixed(2)}) · p99 ${ms(report.settleToAnswerP99)}; whole call p50 ${ms(report.callP50)}`,
    `behind ${report.backlog.slowJobs} slow jobs holding the standard lane: ${report.backlog.calls} wait calls p50 ${ms(report.backlog.callP50)} · max ${ms(report.backlog.callMax)} (before the fast lane: 6.5–27.7 s)`,
  ].join('\n');
}
