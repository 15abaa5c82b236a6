import { createOrganization } from '../lambdas/domain/access/organizations.js';
import { isTerminal } from '../lambdas/domain/jobs/job.js';
import { depositCredits } from '../lambdas/domain/money/credits.js';
import type { Runtime } from '../local/runtime.js';
import { percentile } from './stats.js';

/** Step Functions Standard, us-east-1 list price: $0.025 per 1,000 state transitions (the first 4,000 a month are free). */
export const USD_PER_STATE_TRANSITION = 0.025 / 1000;
/** Lambda requests: $0.20 per million (duration is billed on top and depends on memory; not estimated here). */
export const USD_PER_LAMBDA_REQUEST = 0.2 / 1_000_000;

export interface InspectionBenchmark {
  runs: number;
  concurrency: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  transitionsPerInspection: number;
  /** lambda:invoke tasks per inspection (the stage worker's invocations) */
  stageWorkerInvocations: number;
  usdPer1000: { stateTransitions: number; stageWorkerRequests: number };
}

async function upload(runtime: Runtime, key: string, contentType: string, bytes: Buffer): Promise<string> {
  const created = await fetch(`${runtime.baseUrl}/v1/uploads`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ content_type: contentType, size_bytes: bytes.length }),
  });
  const body = (await created.json()) as { url: string; upload_ref: string; headers: Record<string, string> };
  const put = await fetch(body.url, { method: 'PUT', headers: body.headers, body: bytes });
  if (!put.ok) throw new Error(`upload failed: ${put.status}`);
  return body.upload_ref;
}

/**
 * Test-mode inspections on the local runtime (the same ASL on aws-local-stepfunctions, stage jobs
 * through the work queue and the test-mode backend): wall time from the 202 of POST /v1/inspections
 * to the inspection settled, and the state transitions each run takes, priced as on AWS.
 */
export async function measureInspections(
  runtime: Runtime,
  runs: number,
  concurrency: number,
): Promise<InspectionBenchmark> {
  const { services } = runtime;
  const org = await createOrganization(services, { name: 'Bench Inspections', plan: 'enterprise' });
  await depositCredits(services, org.organization.id, false, 1_000_000, 'bench');
  const key = org.testKey;
  // uploads are the client's work, before admission: prepared up front, outside the timing
  const inputs = await Promise.all(
    Array.from({ length: runs }, async (_, i) => [
      await upload(runtime, key, 'video/mp4', Buffer.alloc(8192, `video-${i}`)),
      ...(await Promise.all(
        [0, 1, 2].map((p) => upload(runtime, key, 'image/jpeg', Buffer.alloc(4096, `photo-${i}-${p}`))),
      )),
    ]),
  );
  const wall: number[] = [];
  const ids: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < runs) {
        const refs = inputs[next++]!;
        const t0 = performance.now();
        const response = await fetch(`${runtime.baseUrl}/v1/inspections`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ input_refs: refs }),
        });
        const job = (await response.json()) as { id: string };
        if (response.status !== 202) throw new Error(`admission answered ${response.status}: ${JSON.stringify(job)}`);
        for (;;) {
          const record = await services.jobs.get(job.id);
          if (record && isTerminal(record.status)) {
            if (record.status !== 'succeeded') throw new Error(`inspection ${job.id} ${record.status}`);
            break;
          }
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        wall.push(performance.now() - t0);
        ids.push(job.id);
      }
    }),
  );
  const sorted = [...wall].sort((a, b) => a - b);
  const transitions = ids.map((id) => runtime.orchestrator.transitionsOf({ inspection_id: id, attempt: 0 }));
  const transitionsPerInspection = Math.round(transitions.reduce((a, b) => a + b, 0) / transitions.length);
  // begin + (start + record) per stage + finalize, every one a lambda:invoke of the stage worker
  const stageWorkerInvocations = 1 + 8 * 2 + 1;
  return {
    runs,
    concurrency,
    p50Ms: Math.round(percentile(sorted, 50)),
    p99Ms: Math.round(percentile(sorted, 99)),
    maxMs: Math.round(sorted[sorted.length - 1]!),
    transitionsPerInspection,
    stageWorkerInvocations,
    usdPer1000: {
      stateTransitions: Number((transitionsPerInspection * USD_PER_STATE_TRANSITION * 1000).toFixed(4)),
      stageWorkerRequests: Number((stageWorkerInvocations * USD_PER_LAMBDA_REQUEST * 1000).toFixed(4)),
    },
  };
}

export function formatInspectionReport(b: InspectionBenchmark): string {
  return [
    `${b.runs} full eight-stage inspections, concurrency ${b.concurrency}: admission → settled p50 ${b.p50Ms} ms · p99 ${b.p99Ms} ms · max ${b.maxMs} ms`,
    `state transitions per inspection: ${b.transitionsPerInspection} → $${b.usdPer1000.stateTransitions} per 1,000 inspections (Standard, $0.025 per 1,000 transitions)`,
    `stage worker invocations per inspection: ${b.stageWorkerInvocations} → $${b.usdPer1000.stageWorkerRequests} per 1,000 inspections in Lambda requests (duration extra)`,
  ].join('\n');
}
