import { beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE, modelVersionOf } from '../../../lambdas/domain/catalogue/catalogue.js';
import type { JobRecord } from '../../../lambdas/domain/jobs/job.js';
import type { InferencePlane } from '../../../lambdas/domain/ports/jobs.js';
import { runSandboxModel } from '../../../lambdas/sandbox/backend.js';
import { createBatchOf, finishedBatch, jobsOfBatch, outputLines, vin } from '../../support/batches.js';
import { call, eventually } from '../../support/http.js';
import { postSignedCompletion } from '../../support/live-job.js';
import { asRole } from '../../support/management.js';
import { sharedTestService } from '../../support/service.js';

/**
 * Redaction reaches a batch's output file (docs/internals/batches.md, "Redaction"): the redacted job's line
 * keeps `line`, `custom_id`, `job_id`, `status` and `error` with `result: null`, whether the file
 * was written before the redaction or after it, and however many redactions run at once. Every
 * file is read as a customer reads it: through the signed URL the batch presents.
 */
const silentPlane: InferencePlane = { submit: async () => true };
const svc = sharedTestService({ livePlane: silentPlane });
let orgId: string;
beforeAll(() => {
  orgId = svc.org.organization.id;
});

const lines = (count: number, prefix: string) =>
  Array.from({ length: count }, (_, n) => ({ custom_id: `${prefix}-${n + 1}`, params: { vin: vin(n + 1) } }));

async function finishedTestBatch(count: number, prefix: string) {
  const created = await createBatchOf(svc.baseUrl, svc.org.testKey, 'pricing.vehicle', lines(count, prefix));
  expect(created.status).toBe(202);
  const batch = await finishedBatch(svc.baseUrl, svc.org.testKey, created.body.id);
  expect(batch.status).toBe('succeeded');
  return batch;
}

/** The output file as the batch presents it now (a fresh signed URL on each read). */
async function outputOf(batchId: string, key = svc.org.testKey) {
  const batch = await call(svc.baseUrl, 'GET', `/v1/batches/${batchId}`, { key });
  expect(batch.body.output_file).not.toBeNull();
  return outputLines(batch.body.output_file.url);
}

const redact = (jobId: string, key = svc.org.testKey) => call(svc.baseUrl, 'POST', `/v1/jobs/${jobId}/redact`, { key });

function expectRedactedLine(entry: Record<string, unknown>, line: number, customId: string, jobId: string): void {
  expect(entry).toEqual({ line, custom_id: customId, job_id: jobId, status: 'succeeded', result: null, error: null });
}

describe('a job of a completed batch, redacted', () => {
  it('leaves its line in the output file with line, custom_id and job_id and a null result; the other lines keep theirs', async () => {
    const batch = await finishedTestBatch(3, 'after');
    const before = await outputOf(batch.id);
    expect(before.every((entry) => entry.result !== null)).toBe(true);
    const jobId = before[1]!.job_id as string;

    expect((await redact(jobId)).status).toBe(200);

    const after = await outputOf(batch.id);
    expect(after).toHaveLength(3);
    expectRedactedLine(after[1]!, 2, 'after-2', jobId);
    expect([after[0], after[2]]).toEqual([before[0], before[2]]);
    // a repeated redaction finds the line redacted already and leaves the file as it is
    expect((await redact(jobId)).status).toBe(200);
    expect(await outputOf(batch.id)).toEqual(after);
  });

  it('through the management API (the organisation-wide redact), the same', async () => {
    const batch = await finishedTestBatch(2, 'org');
    const jobId = (await outputOf(batch.id))[0]!.job_id as string;

    expect((await asRole(svc, 'admin', 'POST', `/mgmt/v1/jobs/${jobId}/redact`)).status).toBe(200);

    expectRedactedLine((await outputOf(batch.id))[0]!, 1, 'org-1', jobId);
  });

  it('every job redacted at once: no redaction brings back a result another one took out', async () => {
    const count = 4;
    const batch = await finishedTestBatch(count, 'together');
    const before = await outputOf(batch.id);

    const answers = await Promise.all(before.map((entry) => redact(entry.job_id as string)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(count).fill(200));

    const after = await outputOf(batch.id);
    after.forEach((entry, n) => {
      expectRedactedLine(entry, n + 1, `together-${n + 1}`, before[n]!.job_id as string);
    });
  });
});

describe('a job redacted before its batch completes', () => {
  /** The plane's report of a live job: the sandbox's result, signed with the callback secret. */
  async function report(job: JobRecord) {
    const output = (await runSandboxModel(job))!;
    const raw = JSON.stringify({
      job_id: job.id,
      status: 'succeeded',
      model_version: modelVersionOf(CATALOGUE[job.endpoint]),
      result: output.result,
    });
    const answer = await postSignedCompletion(svc, raw);
    expect(answer.body).toMatchObject({ received: true, status: 'succeeded' });
  }

  /** A live batch of two lines whose jobs the plane accepted; the test reports for it. */
  async function processingBatch(prefix: string) {
    const created = await createBatchOf(svc.baseUrl, svc.org.liveKey, 'pricing.vehicle', lines(2, prefix));
    expect(created.status).toBe(202);
    const batchId = created.body.id as string;
    const jobs = await eventually(async () => {
      const all = await jobsOfBatch(svc.services, orgId, batchId, true);
      return all.length === 2 && all.every((job) => job.status === 'processing') ? all : null;
    });
    const [first, second] = [...jobs].sort((a, b) => (a.id < b.id ? -1 : 1)) as [JobRecord, JobRecord];
    return { batchId, first, second };
  }

  /** The output file's line of each job, checked: `redacted` with a null result, `kept` with its own. */
  async function expectOutput(batchId: string, redacted: JobRecord, kept: JobRecord) {
    const batch = await finishedBatch(svc.baseUrl, svc.org.liveKey, batchId);
    expect(batch.status).toBe('succeeded');
    const output = await outputOf(batchId, svc.org.liveKey);
    const recorded = await svc.services.batches.lines(batchId, 0, 2);
    const lineOf = (jobId: string) => recorded.find((line) => line.job_id === jobId)!;
    const gone = lineOf(redacted.id);
    expectRedactedLine(output[gone.line]!, gone.line + 1, gone.custom_id!, redacted.id);
    expect(output[lineOf(kept.id).line]!.result).not.toBeNull();
  }

  it('has a null result in the output file written when the last job settles', async () => {
    const { batchId, first, second } = await processingBatch('before');

    await report(first);
    expect((await redact(first.id, svc.org.liveKey)).status).toBe(200);
    await report(second);

    await expectOutput(batchId, first, second);
  });

  it('redacted while the completion writes the file (its jobs read before the redaction): the line still ends null', async () => {
    const { batchId, first, second } = await processingBatch('racing');
    await report(first);
    // the completion has read every job (the first with its result) and is about to write the
    // file: the redaction runs now, and the write goes on once the job is marked redacted
    const objects = svc.services.objects;
    const put = objects.put.bind(objects);
    let redaction: ReturnType<typeof redact> | null = null;
    objects.put = async (key, body, contentType) => {
      if (redaction === null && key.endsWith(`/${batchId}/output.jsonl`)) {
        redaction = redact(first.id, svc.org.liveKey);
        await eventually(async () => (await svc.services.jobs.get(first.id))?.redacted_at !== undefined);
      }
      return put(key, body, contentType);
    };
    try {
      await report(second);
    } finally {
      objects.put = put;
    }
    expect(redaction).not.toBeNull();
    expect((await redaction!).status).toBe(200);

    await expectOutput(batchId, first, second);
  });
});
