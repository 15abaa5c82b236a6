import { createOrganization } from '../lambdas/domain/organizations.js';
import { depositCredits } from '../lambdas/domain/credits.js';
import { isTerminal } from '../lambdas/domain/job.js';
import type { Runtime } from '../lambdas/local/runtime.js';
import { countCalls, perJob, type CallCounts } from './call-counter.js';

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function plateForm(i: number): FormData {
  const form = new FormData();
  form.append('image', new Blob([Buffer.alloc(4096, i % 251)], { type: 'image/jpeg' }), `car-${i}.jpg`);
  return form;
}

export interface AdmissionReport {
  calls: number;
  concurrency: number;
  p50Ms: number;
  p99Ms: number;
  throughputPerSecond: number;
  callsPerAdmittedJob: Record<string, string>;
  callsPerSettledJob: Record<string, string>;
}

/** Admission latency through HTTP with the worker paused, then settlement with it running. */
export async function measureAdmission(runtime: Runtime, calls = 1000, concurrency = 8): Promise<AdmissionReport> {
  const services = runtime.services;
  const org = await createOrganization(services, { name: 'Bench Org', plan: 'enterprise' });
  await depositCredits(services, org.organization.id, false, 1_000_000, 'bench');
  const admissionCounts: CallCounts = {};
  const settlementCounts: CallCounts = {};
  let counts = admissionCounts;
  const sink = () => counts;
  countCalls('dynamodb', services.clients.dynamodb, sink);
  countCalls('sqs', services.clients.sqs, sink);
  countCalls('s3', services.clients.s3, sink);

  runtime.worker.pause();
  const latencies: number[] = [];
  const ids: string[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < calls) {
        const i = next++;
        const t0 = performance.now();
        const response = await fetch(`${runtime.baseUrl}/v1/plate.read`, { method: 'POST', headers: { Authorization: `Bearer ${org.testKey}` }, body: plateForm(i) });
        const body = (await response.json()) as { id: string };
        latencies.push(performance.now() - t0);
        if (response.status !== 202) throw new Error(`admission answered ${response.status}: ${JSON.stringify(body)}`);
        ids.push(body.id);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  counts = settlementCounts;
  runtime.worker.resume();
  const deadline = Date.now() + 300_000;
  for (const id of ids) {
    for (;;) {
      const job = await services.jobs.get(id);
      if (job && isTerminal(job.status)) break;
      if (Date.now() > deadline) throw new Error('settlement did not finish');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  counts = {};
  latencies.sort((a, b) => a - b);
  return {
    calls,
    concurrency,
    p50Ms: Number(percentile(latencies, 50).toFixed(1)),
    p99Ms: Number(percentile(latencies, 99).toFixed(1)),
    throughputPerSecond: Number((calls / elapsed).toFixed(0)),
    callsPerAdmittedJob: perJob(admissionCounts, calls),
    callsPerSettledJob: perJob(settlementCounts, calls),
  };
}
