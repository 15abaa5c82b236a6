import { randomUUID } from 'node:crypto';
import { createOrganization } from '../lambdas/domain/access/organizations.js';
import { isTerminal } from '../lambdas/domain/jobs/job.js';
import { depositCredits } from '../lambdas/domain/money/credits.js';
import type { Runtime } from '../local/runtime.js';
import { type CallCounts, countCalls, perJob } from './call-counter.js';
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
async function admit(runtime: Runtime, key: string, calls: number, concurrency: number, idempotencyKeys?: string[]): Promise<{ summary: LatencySummary; ids: string[] }> {
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
        const response = await fetch(`${runtime.baseUrl}/v1/plate.read`, { method: 'POST', headers, body: plateForm(i) });
        const body = (await response.json()) as { id: string };
        latencies.push(performance.now() - t0);
        if (response.status !== 202) throw new Error(`admission answered ${response.status}: ${JSON.stringify(body)}`);
        ids.push(body.id);
      }
    }),
  );
  return { summary: summarise(latencies, performance.now() - started), ids };
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
