import { beforeEach, describe, expect, it } from 'vitest';
import { authenticateApiKey } from '../../../../lambdas/domain/access/api-keys.js';
import { batchOutputKey } from '../../../../lambdas/domain/batches/batch.js';
import { createBatch } from '../../../../lambdas/domain/batches/batches.js';
import { cancelBatch } from '../../../../lambdas/domain/batches/cancel.js';
import { sweepDueBatches } from '../../../../lambdas/domain/batches/driver.js';
import { MAX_RUN_LINE_BYTES, RUN_LEASE_PREFIX } from '../../../../lambdas/domain/batches/map-run.js';
import { startBatchAdmission } from '../../../../lambdas/domain/batches/start.js';
import { enforceRetention } from '../../../../lambdas/domain/erasure/retention.js';
import type { BatchRunner } from '../../../../lambdas/domain/ports/batches.js';
import { readBatchLine } from '../../../../lambdas/http/inference/batch-line.js';
import { handleBatchRunAction } from '../../../../lambdas/workers/batch-run.js';
import { type InMemoryWorld, inMemoryWorld } from '../../../support/in-memory/services.js';

// A batch admitted by the Distributed Map (statemachines/batch.ts, docs/internals/batches.md), its state
// machine played by hand: the run holds the lease, item batches arrive in any order and may be
// retried, the last state marks the batch fully read; a failed run is the sweeper's to finish.

let { services, org } = {} as InMemoryWorld;
let started: { batchId: string; inputObjectKey: string; leaseToken: string | null }[];
let refuseStart: boolean;

/** What the Step Functions adapter does, without AWS: records the start (or fails it). */
const stateMachine: BatchRunner = {
  handedLease: true,
  async start(run) {
    if (refuseStart) throw new Error('StartExecution refused');
    started.push(run);
  },
};

beforeEach(async () => {
  ({ services, org } = await inMemoryWorld({ plan: 'enterprise' }));
  services.batchStateMachine = stateMachine;
  started = [];
  refuseStart = false;
});

const reader = (text: string, endpoint: Parameters<typeof readBatchLine>[1]) =>
  readBatchLine(text, endpoint, services.config.maxFileBytes);
const valid = (n: number) =>
  JSON.stringify({ custom_id: `r${n}`, params: { vin: `WVWZZZ1KZ${String(n).padStart(8, '0')}` } });
const badParams = (n: number) => JSON.stringify({ custom_id: `r${n}`, params: { vin: 42 } });

async function createdBatch(lines: readonly string[]) {
  const principal = await authenticateApiKey(services, org.testKey);
  const bytes = new TextEncoder().encode(`${lines.join('\n')}\n`);
  const { createUpload } = await import('../../../../lambdas/domain/jobs/uploads.js');
  const upload = await createUpload(services, principal, {
    content_type: 'application/jsonl',
    size_bytes: bytes.length,
  });
  await services.objects.put(`uploads/${org.organization.id}/${upload.upload_ref}`, bytes, 'application/jsonl');
  const batch = await createBatch(services, principal, { endpoint: 'pricing.vehicle', input_file: upload.upload_ref });
  await startBatchAdmission(services, batch, stateMachine);
  return batch;
}

/** The item batches the ItemReader, ItemSelector and ItemBatcher make of the file: 40 lines each, parsed, with their index. */
function itemBatches(lines: readonly string[]) {
  const items = lines.map((line, index) => ({ index, value: JSON.parse(line) as unknown }));
  return Array.from({ length: Math.ceil(items.length / 40) }, (_, n) => items.slice(n * 40, n * 40 + 40));
}

const admit = (batchId: string, leaseToken: string, items: { index: number; value: unknown }[]) =>
  handleBatchRunAction(services, { action: 'admit_lines', batch_id: batchId, lease_token: leaseToken, items });

function batchJobs(batchId: string) {
  return [...services.tables.jobs.values()].filter((job) => job.batch_id === batchId);
}

function countsAddUp(
  batch: { total: number; processing: number; succeeded: number; failed: number; canceled: number },
  queuedJobs: number,
  unread: number,
) {
  expect(batch.processing + batch.succeeded + batch.failed + batch.canceled + queuedJobs + unread).toBe(batch.total);
}

describe('a batch run by the Distributed Map', () => {
  it('is handed the lease for the whole run: the sweeper leaves it alone, item batches in any order admit every line once', async () => {
    const lines = Array.from({ length: 100 }, (_, n) => (n % 10 === 0 ? badParams(n) : valid(n)));
    const batch = await createdBatch(lines);
    expect(started).toEqual([
      {
        batchId: batch.id,
        inputObjectKey: batch.input_object_key,
        leaseToken: expect.stringMatching(new RegExp(`^${RUN_LEASE_PREFIX}`)),
      },
    ]);
    const token = started[0]!.leaseToken!;
    // an hour on, the run still holds the batch: the sweeper drives nothing
    services.clock.advance(3600 * 1000);
    expect(await sweepDueBatches(services, reader)).toBe(0);

    const [first, second, third] = itemBatches(lines);
    expect(await admit(batch.id, token, third!)).toEqual({ outcome: 'admitted' });
    expect(await admit(batch.id, token, first!)).toEqual({ outcome: 'admitted' });
    // a retried item batch (its invocation timed out after recording) admits nothing twice
    expect(await admit(batch.id, token, first!)).toEqual({ outcome: 'admitted' });
    expect(await admit(batch.id, token, second!)).toEqual({ outcome: 'admitted' });
    expect(await handleBatchRunAction(services, { action: 'finish', batch_id: batch.id, lease_token: token })).toEqual({
      outcome: 'finished',
    });

    const recorded = await services.batches.lines(batch.id, 0, 100);
    expect(recorded.map((line) => line.line)).toEqual(Array.from({ length: 100 }, (_, n) => n));
    expect(recorded.map((line) => line.custom_id)).toEqual(Array.from({ length: 100 }, (_, n) => `r${n}`));
    expect(recorded.filter((line) => line.error?.code === 'parameter_invalid')).toHaveLength(10);
    const jobs = batchJobs(batch.id);
    expect(jobs).toHaveLength(90);
    expect(new Set(recorded.flatMap((line) => (line.job_id ? [line.job_id] : [])))).toEqual(
      new Set(jobs.map((job) => job.id)),
    );
    const stored = (await services.batches.get(batch.id))!;
    // fully read, exactly as after the driver: cursor at the end, lease let go
    expect(stored).toMatchObject({ status: 'running', cursor: 100, lease_token: null, failed: 10, reserved: 90 * 10 });
    countsAddUp(stored, jobs.filter((job) => job.status === 'queued').length, 0);
  });

  it('leaves a failed run to the sweeper: the lease let go, every line ends as a job or a failed line exactly once', async () => {
    const lines = Array.from({ length: 90 }, (_, n) => valid(n));
    const batch = await createdBatch(lines);
    const token = started[0]!.leaseToken!;
    const [first] = itemBatches(lines);
    await admit(batch.id, token, first!);
    // the Map failed: its Catch runs the release
    await handleBatchRunAction(services, { action: 'release', batch_id: batch.id, lease_token: token });
    expect(await sweepDueBatches(services, reader)).toBe(1);
    const recorded = await services.batches.lines(batch.id, 0, 90);
    expect(recorded.map((line) => line.line)).toEqual(Array.from({ length: 90 }, (_, n) => n));
    expect(batchJobs(batch.id)).toHaveLength(90);
    expect((await services.batches.get(batch.id))!.cursor).toBe(90);
    // the run, were it still going, has lost the batch: its item batches admit nothing
    expect(await admit(batch.id, token, first!)).toEqual({ outcome: 'lease_lost' });
    expect(await handleBatchRunAction(services, { action: 'finish', batch_id: batch.id, lease_token: token })).toEqual({
      outcome: 'lease_lost',
    });
  });

  it("lets go of the lease when the run ends in a failure no Catch sees (the execution's status change arrives)", async () => {
    for (const [status, error] of [
      ['FAILED', 'States.DataLimitExceeded'],
      ['TIMED_OUT', 'States.Timeout'],
      ['ABORTED', null],
    ] as const) {
      const lines = Array.from({ length: 50 }, (_, n) => valid(n));
      const batch = await createdBatch(lines);
      const run = started.at(-1)!;
      await admit(batch.id, run.leaseToken!, itemBatches(lines)[0]!);
      // what EventBridge delivers for the batch state machine's execution (lib/batches.ts)
      const statusChange = {
        version: '0',
        source: 'aws.states',
        'detail-type': 'Step Functions Execution Status Change',
        detail: {
          executionArn: `arn:aws:states:eu-west-1:123456789012:execution:TestStack-batch:${batch.id}`,
          name: batch.id,
          status,
          error,
          input: JSON.stringify({
            batch_id: batch.id,
            lease_token: run.leaseToken,
            bucket: 'data',
            input_key: run.inputObjectKey,
          }),
        },
      };
      expect(await handleBatchRunAction(services, statusChange), status).toEqual({ outcome: 'released' });
      expect((await services.batches.get(batch.id))!.lease_token, status).toBeNull();
      expect(await sweepDueBatches(services, reader), status).toBe(1);
      expect(batchJobs(batch.id), status).toHaveLength(50);
    }
  });

  it('lets go of the lease when a line has no outcome at the end, for the sweeper to admit', async () => {
    const lines = Array.from({ length: 50 }, (_, n) => valid(n));
    const batch = await createdBatch(lines);
    const token = started[0]!.leaseToken!;
    await admit(batch.id, token, itemBatches(lines)[0]!);
    expect(await handleBatchRunAction(services, { action: 'finish', batch_id: batch.id, lease_token: token })).toEqual({
      outcome: 'incomplete',
    });
    expect(await sweepDueBatches(services, reader)).toBe(1);
    expect(batchJobs(batch.id)).toHaveLength(50);
  });

  it('records the lines of item batches after a cancel as canceled, and cancels the jobs admitted meanwhile', async () => {
    const lines = Array.from({ length: 120 }, (_, n) => valid(n));
    const batch = await createdBatch(lines);
    const token = started[0]!.leaseToken!;
    const [first, second, third] = itemBatches(lines);
    await admit(batch.id, token, first!);
    await cancelBatch(services, (await services.batches.get(batch.id))!);
    // an item batch already past its cancel check when the cancel landed
    await admit(batch.id, token, second!);
    await services.uow.commit([{ kind: 'updateBatch', batchId: batch.id, set: { cancel_requested: true } }]);
    expect(await admit(batch.id, token, third!)).toEqual({ outcome: 'canceled' });
    expect(await handleBatchRunAction(services, { action: 'finish', batch_id: batch.id, lease_token: token })).toEqual({
      outcome: 'finished',
    });
    const stored = (await services.batches.get(batch.id))!;
    expect(stored.status).toBe('canceled');
    expect(stored).toMatchObject({ canceled: 120, reserved: 0, cursor: 120 });
    expect(batchJobs(batch.id).every((job) => job.status === 'canceled')).toBe(true);
  });

  it('is not started for a file the JSONL reader would not take item for item, nor when the start fails: the sweeper drives those', async () => {
    const withBadLine = await createdBatch([valid(0), 'not json', valid(2)]);
    // a line over the run's bound would take its item batch past Step Functions' state limit
    const withLongLine = await createdBatch([
      valid(0),
      JSON.stringify({ custom_id: 'long', params: { vin: 'WVWZZZ1KZAW000001' }, note: 'x'.repeat(MAX_RUN_LINE_BYTES) }),
    ]);
    expect(started).toEqual([]);
    expect((await services.batches.get(withLongLine.id))!.lease_token).toBeNull();
    expect((await services.batches.get(withBadLine.id))!.lease_token).toBeNull();
    refuseStart = true;
    const notStarted = await createdBatch([valid(0), valid(1)]);
    expect((await services.batches.get(notStarted.id))!.lease_token).toBeNull();
    // a created batch's first lease runs out a lease after its creation
    services.clock.advance((services.config.batchLeaseSeconds + 1) * 1000);
    expect(await sweepDueBatches(services, reader)).toBe(3);
    expect(await services.batches.lines(withLongLine.id, 0, 2)).toHaveLength(2);
    expect(await services.batches.lines(withBadLine.id, 0, 3)).toMatchObject([
      { error: null },
      { error: { code: 'invalid_json' } },
      { error: null },
    ]);
    expect(batchJobs(notStarted.id)).toHaveLength(2);
  });
});

describe('a batch beside retention and the sweeper', () => {
  const DAY_MS = 86_400_000;
  const retentionDays = () => org.organization.storage_retention_days;

  it('keeps the input file of a batch that has not settled, however old, and drives the batch from it', async () => {
    refuseStart = true;
    const lines = Array.from({ length: 45 }, (_, n) => valid(n));
    const batch = await createdBatch(lines);
    services.clock.advance((retentionDays() + 1) * DAY_MS);
    await enforceRetention(services);
    expect(services.tables.objects.has(batch.input_object_key)).toBe(true);
    expect(await sweepDueBatches(services, reader)).toBe(1);
    expect(batchJobs(batch.id)).toHaveLength(45);
  });

  it("keeps a settled batch's output file until the batch is older than the retention, then deletes it", async () => {
    refuseStart = true;
    const batch = await createdBatch([valid(0)]);
    const outputKey = batchOutputKey(batch);
    await services.objects.put(outputKey, new TextEncoder().encode('{}\n'), 'application/jsonl');
    await services.uow.commit([
      { kind: 'updateBatch', batchId: batch.id, set: { status: 'succeeded', output_key: outputKey } },
    ]);
    await enforceRetention(services);
    expect(services.tables.objects.has(outputKey)).toBe(true);
    services.clock.advance((retentionDays() + 1) * DAY_MS);
    await enforceRetention(services);
    expect(services.tables.objects.has(outputKey)).toBe(false);
  });

  it('drives every other due batch when one of them is broken (its input file gone)', async () => {
    refuseStart = true;
    const broken = await createdBatch([valid(0), valid(1)]);
    const sound = await createdBatch([valid(2), valid(3)]);
    services.tables.objects.delete(broken.input_object_key);
    services.clock.advance((services.config.batchLeaseSeconds + 1) * 1000);
    expect(await sweepDueBatches(services, reader)).toBe(1);
    expect(batchJobs(sound.id)).toHaveLength(2);
    // the broken one is looked at again a lease later, not at the head of every sweep
    expect((await services.batches.get(broken.id))!.lease_until).toBeGreaterThan(
      Math.floor(services.clock.nowMs() / 1000),
    );
  });
});
