import { randomUUID } from 'node:crypto';
import { createApiKey, createOrganization } from '../lambdas/domain/access/organizations.js';
import { isTerminal } from '../lambdas/domain/jobs/job.js';
import { depositCredits } from '../lambdas/domain/money/credits.js';
import type { Runtime } from '../local/runtime.js';
import { aroundCalls, type CallCounts, countCalls, perJob } from './call-counter.js';
import { percentile } from './stats.js';

function plateForm(i: number): FormData {
  const form = new FormData();
  form.append('image', new Blob([Buffer.alloc(4096, i % 251)], { type: 'image/jpeg' }), `car-${i}.jpg`);
  return form;
}

export interface LatencySummary {
  calls: number;
  p50Ms: number;
  p99Ms: number;
  perSecond: number;
}

function summarise(latencies: number[], elapsedMs: number): LatencySummary {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    calls: sorted.length,
    p50Ms: Number(percentile(sorted, 50).toFixed(1)),
    p99Ms: Number(percentile(sorted, 99).toFixed(1)),
    perSecond: Math.round((sorted.length / elapsedMs) * 1000),
  };
}

/** Fires `calls` plate.read admissions at `concurrency`, returning latencies and job ids. */
async function admit(
  runtime: Runtime,
  key: string,
  calls: number,
  concurrency: number,
  idempotencyKeys?: string[],
): Promise<{ summary: LatencySummary; ids: string[]; latencies: number[] }> {
  const latencies: number[] = [];
  const ids: string[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < calls) {
        const i = next++;
        const headers: Record<string, string> = { Authorization: `Bearer ${key}` };
        if (idempotencyKeys) headers['Idempotency-Key'] = idempotencyKeys[i]!;
        const t0 = performance.now();
        const response = await fetch(`${runtime.baseUrl}/v1/plate.read`, {
          method: 'POST',
          headers,
          body: plateForm(i),
        });
        const body = (await response.json()) as { id: string };
        latencies.push(performance.now() - t0);
        if (response.status !== 202) throw new Error(`admission answered ${response.status}: ${JSON.stringify(body)}`);
        ids.push(body.id);
      }
    }),
  );
  return { summary: summarise(latencies, performance.now() - started), ids, latencies };
}

async function waitForSettlement(runtime: Runtime, ids: string[]): Promise<void> {
  const deadline = Date.now() + 300_000;
  for (const id of ids) {
    for (;;) {
      const job = await runtime.services.jobs.get(id);
      if (job && isTerminal(job.status)) break;
      if (Date.now() > deadline) throw new Error('settlement did not finish');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

export interface AdmissionReport {
  withoutKey: LatencySummary;
  withKey: LatencySummary;
  replay: LatencySummary;
  callsPerAdmittedJob: Record<string, string>;
  callsPerSettledJob: Record<string, string>;
}

/**
 * Admission through HTTP with the worker paused (admission cost only), then settlement with it
 * running; AWS SDK calls are counted by middleware on the runtime's own clients.
 */
export async function measureAdmission(runtime: Runtime, calls = 1000, concurrency = 8): Promise<AdmissionReport> {
  const services = runtime.services;
  const org = await createOrganization(services, { name: 'Bench Org', plan: 'enterprise' });
  await depositCredits(services, org.organization.id, false, 10_000_000, 'bench');
  const admissionCounts: CallCounts = {};
  const settlementCounts: CallCounts = {};
  let counts: CallCounts = {};
  const sink = () => counts;
  countCalls('dynamodb', sink);
  countCalls('sqs', sink);
  countCalls('s3', sink);

  runtime.worker.pause();
  counts = admissionCounts;
  const plain = await admit(runtime, org.testKey, calls, concurrency);
  counts = settlementCounts;
  runtime.worker.resume();
  await waitForSettlement(runtime, plain.ids);
  counts = {};

  const keys = Array.from({ length: calls }, () => randomUUID());
  const keyed = await admit(runtime, org.testKey, calls, concurrency, keys);
  const replayed = await admit(runtime, org.testKey, calls, concurrency, keys);
  await waitForSettlement(runtime, keyed.ids);
  return {
    withoutKey: plain.summary,
    withKey: keyed.summary,
    replay: replayed.summary,
    callsPerAdmittedJob: perJob(admissionCounts, calls),
    callsPerSettledJob: perJob(settlementCounts, calls),
  };
}

export interface SpendLimitReport {
  withoutLimit: LatencySummary;
  withLimit: LatencySummary;
  callsWithoutLimit: Record<string, string>;
  callsWithLimit: Record<string, string>;
  /** items in the admission's TransactWriteItems, by key */
  transactionItems: { withoutLimit: number; withLimit: number };
}

/**
 * Admission with a spend limit beside admission without one (docs/internals/spend-limits.md): two keys of one
 * organisation, worker paused, alternating rounds of 50 calls so both see the same machine; every
 * AWS call is counted per key, and the items of each admission transaction.
 */
export async function measureSpendLimitAdmission(
  runtime: Runtime,
  calls = 600,
  concurrency = 8,
): Promise<SpendLimitReport> {
  const services = runtime.services;
  const org = await createOrganization(services, { name: 'Bench Spend Org', plan: 'enterprise' });
  await depositCredits(services, org.organization.id, false, 10_000_000, 'bench');
  // a limit the run never reaches: the admission pays for the check, not for a refusal
  const limited = await createApiKey(services, org.organization.id, {
    name: 'limited',
    livemode: false,
    spendLimit: { credits: 1_000_000_000, period: 'day' },
  });
  const counts = { withoutLimit: {} as CallCounts, withLimit: {} as CallCounts };
  const items = { withoutLimit: [] as number[], withLimit: [] as number[] };
  let current: keyof typeof counts = 'withoutLimit';
  countCalls('dynamodb', () => counts[current]);
  countCalls('sqs', () => counts[current]);
  countCalls('s3', () => counts[current]);
  const stop = aroundCalls((call, next) => {
    const transactItems = call.input.TransactItems;
    if (call.service === 'dynamodb' && Array.isArray(transactItems)) items[current].push(transactItems.length);
    return next();
  });
  const latencies = { withoutLimit: [] as number[], withLimit: [] as number[] };
  const elapsed = { withoutLimit: 0, withLimit: 0 };
  runtime.worker.pause();
  try {
    // a warm-up round per key: both principals cached, both counters written
    await admit(runtime, org.testKey, 10, 2);
    await admit(runtime, limited.secret, 10, 2);
    for (const bucket of [counts.withoutLimit, counts.withLimit])
      for (const name of Object.keys(bucket)) delete bucket[name];
    items.withoutLimit.length = 0;
    items.withLimit.length = 0;
    const round = 50;
    for (let done = 0; done < calls; done += round) {
      for (const [side, key] of [
        ['withoutLimit', org.testKey],
        ['withLimit', limited.secret],
      ] as const) {
        current = side;
        const started = performance.now();
        const { latencies: measured } = await admit(runtime, key, round, concurrency);
        elapsed[side] += performance.now() - started;
        latencies[side].push(...measured);
      }
    }
  } finally {
    stop();
    runtime.worker.resume();
  }
  const mean = (values: number[]) =>
    Number((values.reduce((a, b) => a + b, 0) / Math.max(values.length, 1)).toFixed(2));
  const rounds = Math.ceil(calls / 50) * 50;
  return {
    withoutLimit: summarise(latencies.withoutLimit, elapsed.withoutLimit),
    withLimit: summarise(latencies.withLimit, elapsed.withLimit),
    callsWithoutLimit: perJob(counts.withoutLimit, rounds),
    callsWithLimit: perJob(counts.withLimit, rounds),
    transactionItems: { withoutLimit: mean(items.withoutLimit), withLimit: mean(items.withLimit) },
  };
}

export function formatSpendLimitReport(report: SpendLimitReport): string {
  const line = (label: string, s: LatencySummary) =>
    `${label.padEnd(28)} p50 ${s.p50Ms} ms · p99 ${s.p99Ms} ms · ${s.perSecond}/s`;
  return [
    line('key without a spend limit', report.withoutLimit),
    line('key with a spend limit', report.withLimit),
    `AWS calls per admitted job, without a limit: ${JSON.stringify(report.callsWithoutLimit)}`,
    `AWS calls per admitted job, with a limit:    ${JSON.stringify(report.callsWithLimit)}`,
    `items per admission transaction: ${JSON.stringify(report.transactionItems)}`,
  ].join('\n');
}
