import { expect } from 'vitest';
import type { BatchLineRecord } from '../../lambdas/domain/batches/batch.js';
import type { JobRecord } from '../../lambdas/domain/jobs/job.js';
import type { Services } from '../../lambdas/domain/ports/services.js';
import { call, eventually } from './http.js';
import { uploadFile } from './uploads.js';

/** A VIN the sandbox prices: 17 characters without I, O or Q, varied by `n`. */
export function vin(n: number): string {
  return `WVWZZZ1KZ${String(n).padStart(8, '0')}`;
}

/** Uploads `lines` as a JSONL file and creates a batch of them; returns the create answer. */
export async function createBatchOf(baseUrl: string, key: string, endpoint: string, lines: readonly unknown[]) {
  const body = Buffer.from(
    `${lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n')}\n`,
  );
  const inputFile = await uploadFile(baseUrl, key, 'application/jsonl', body);
  return call(baseUrl, 'POST', '/v1/batches', { key, json: { endpoint, input_file: inputFile } });
}

/** Polls the batch until it is finished. */
export function finishedBatch(baseUrl: string, key: string, id: string, timeoutMs = 120_000) {
  return eventually(
    async () => {
      const batch = await call(baseUrl, 'GET', `/v1/batches/${id}`, { key });
      return ['succeeded', 'failed', 'canceled'].includes(batch.body.status) ? batch.body : null;
    },
    timeoutMs,
    200,
  );
}

/** Every job of the batch, as stored. */
export async function jobsOfBatch(
  services: Services,
  orgId: string,
  batchId: string,
  livemode = false,
): Promise<JobRecord[]> {
  const jobs: JobRecord[] = [];
  let startingAfter: string | undefined;
  for (;;) {
    const page = await services.jobs.list({
      orgId,
      livemode,
      batchId,
      limit: 100,
      ...(startingAfter ? { startingAfter } : {}),
    });
    jobs.push(...page.items);
    if (!page.hasMore) return jobs;
    startingAfter = page.items.at(-1)!.id;
  }
}

/** The counts add up to the total, whatever the moment. */
export function expectCountsAddUp(batch: {
  counts: { total: number; queued: number; processing: number; succeeded: number; failed: number; canceled: number };
}): void {
  const { total, queued, processing, succeeded, failed, canceled } = batch.counts;
  expect(queued + processing + succeeded + failed + canceled).toBe(total);
  for (const count of [queued, processing, succeeded, failed, canceled]) expect(count).toBeGreaterThanOrEqual(0);
}

/** Every line has exactly one outcome: a line record, and a job only when it names one, each job named by one line. */
export async function expectEveryLineOnce(
  services: Services,
  orgId: string,
  batchId: string,
  total: number,
): Promise<{ lines: BatchLineRecord[]; jobs: JobRecord[] }> {
  const lines = await services.batches.lines(batchId, 0, total);
  const jobs = await jobsOfBatch(services, orgId, batchId);
  expect(new Set(lines.map((line) => line.line)).size).toBe(lines.length);
  const named = lines.flatMap((line) => (line.job_id ? [line.job_id] : []));
  expect(new Set(named).size).toBe(named.length);
  expect(new Set(jobs.map((job) => job.id))).toEqual(new Set(named));
  return { lines, jobs };
}

/** The output file's lines, read through its signed URL. */
export async function outputLines(url: string): Promise<Array<Record<string, any>>> {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  return (await response.text())
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

/** The organisation's `batch.completed` events, newest first. */
export async function batchCompletedEvents(services: Services, orgId: string) {
  return (await services.webhooks.listEvents({ orgId, type: 'batch.completed', limit: 100 })).items;
}
