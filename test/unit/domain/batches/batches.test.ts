import { beforeEach, describe, expect, it, vi } from 'vitest';
import { authenticateApiKey } from '../../../../lambdas/domain/access/api-keys.js';
import { MAX_BATCH_LINES } from '../../../../lambdas/domain/batches/batch.js';
import { createBatch } from '../../../../lambdas/domain/batches/batches.js';
import { completeBatchAfterSettlement } from '../../../../lambdas/domain/batches/completion.js';
import { driveBatch, LINES_PER_CHUNK } from '../../../../lambdas/domain/batches/driver.js';
import { jsonlLines } from '../../../../lambdas/domain/batches/input-file.js';
import type { JobRecord } from '../../../../lambdas/domain/jobs/job.js';
import { settleJob } from '../../../../lambdas/domain/jobs/settlement.js';
import { createUpload } from '../../../../lambdas/domain/jobs/uploads.js';
import { ApiError } from '../../../../lambdas/domain/kernel/errors.js';
import type { WriteOp } from '../../../../lambdas/domain/ports/transactions.js';
import { readBatchLine } from '../../../../lambdas/http/inference/batch-line.js';
import { type InMemoryWorld, inMemoryWorld, seedOrganization } from '../../../support/in-memory/services.js';
import { expectMoneyInvariants } from '../../../support/invariants.js';

// The batch driver on in-memory ports (docs/internals/batches.md): one driver at a time, every line once.

let { services, faults, org } = {} as InMemoryWorld;

beforeEach(async () => {
  ({ services, faults, org } = await inMemoryWorld({ plan: 'enterprise' }));
});

const reader = (text: string, endpoint: Parameters<typeof readBatchLine>[1]) =>
  readBatchLine(text, endpoint, services.config.maxFileBytes);

async function batchOf(lines: readonly string[], key = org.testKey) {
  const principal = await authenticateApiKey(services, key);
  const bytes = new TextEncoder().encode(`${lines.join('\n')}\n`);
  const upload = await createUpload(services, principal, {
    content_type: 'application/jsonl',
    size_bytes: bytes.length,
  });
  await services.objects.put(`uploads/${principal.orgId}/${upload.upload_ref}`, bytes, 'application/jsonl');
  return createBatch(services, principal, { endpoint: 'pricing.vehicle', input_file: upload.upload_ref });
}

const valid = (n: number) =>
  JSON.stringify({ custom_id: `r${n}`, params: { vin: `WVWZZZ1KZ${String(n).padStart(8, '0')}` } });

describe('a JSONL input file', () => {
  it('reads CRLF and a last newline, refuses no line, too many lines and bytes that are not UTF-8', () => {
    expect(jsonlLines(new TextEncoder().encode('{"a":1}\r\n{"b":2}\n'))).toEqual(['{"a":1}', '{"b":2}']);
    expect(jsonlLines(new TextEncoder().encode('{"a":1}'))).toEqual(['{"a":1}']);
    for (const bad of [
      new Uint8Array(),
      new TextEncoder().encode('{}\n'.repeat(MAX_BATCH_LINES + 1)),
      new Uint8Array([0xff, 0xfe]),
    ]) {
      const refused = jsonlLines(bad);
      expect(refused).toBeInstanceOf(ApiError);
      expect((refused as ApiError).param).toBe('input_file');
    }
  });
});

describe('the batch driver', () => {
  it('admits every line once: a second driver is busy while the first holds the lease', async () => {
    const batch = await batchOf(Array.from({ length: 90 }, (_, n) => (n % 3 === 0 ? 'not json' : valid(n))));
    const [first, second] = await Promise.all([
      driveBatch(services, batch.id, reader),
      driveBatch(services, batch.id, reader),
    ]);
    expect([first, second].sort()).toEqual(['admitted', 'busy']);
    const lines = await services.batches.lines(batch.id, 0, 90);
    expect(lines.map((line) => line.line)).toEqual(Array.from({ length: 90 }, (_, n) => n));
    expect(lines.filter((line) => line.error?.code === 'invalid_json')).toHaveLength(30);
    const stored = (await services.batches.get(batch.id))!;
    expect(stored).toMatchObject({ cursor: 90, failed: 30, reserved: 60 * 10, lease_token: null });
    expect([...services.tables.jobs.values()].filter((job) => job.batch_id === batch.id)).toHaveLength(60);
  });

  it('resumes a driver that died mid-chunk from its cursor, skipping the lines it recorded', async () => {
    const batch = await batchOf(Array.from({ length: LINES_PER_CHUNK + 10 }, (_, n) => valid(n)));
    faults.arm('batch.after_group');
    await expect(driveBatch(services, batch.id, reader)).rejects.toThrow('injected crash');
    const died = (await services.batches.get(batch.id))!;
    expect(died.cursor).toBe(0);
    // a driver is refused while the dead one's lease lasts, and takes over once it has run out
    expect(await driveBatch(services, batch.id, reader)).toBe('busy');
    services.clock.advance((services.config.batchLeaseSeconds + 1) * 1000);
    expect(await driveBatch(services, batch.id, reader)).toBe('admitted');
    const jobs = [...services.tables.jobs.values()].filter((job) => job.batch_id === batch.id);
    expect(jobs).toHaveLength(LINES_PER_CHUNK + 10);
    expect((await services.batches.lines(batch.id, 0, LINES_PER_CHUNK + 10)).map((line) => line.job_id).sort()).toEqual(
      jobs.map((job) => job.id).sort(),
    );
  });
});

describe('lines admitted in groups', () => {
  /** The transactions that recorded lines, by how many lines each recorded. */
  function recordLineGroups(): number[] {
    const groups: number[] = [];
    const commit = services.uow.commit.bind(services.uow);
    services.uow.commit = async (ops: readonly WriteOp[]) => {
      await commit(ops);
      const lines = ops.filter((op) => op.kind === 'putBatchLine').length;
      if (lines > 0) groups.push(lines);
    };
    return groups;
  }

  const jobsOf = (batchId: string) => [...services.tables.jobs.values()].filter((job) => job.batch_id === batchId);

  it('admits a chunk in as few transactions as 100 actions allow, each line its own job, reservation and hit', async () => {
    const groups = recordLineGroups();
    const batch = await batchOf(
      Array.from({ length: LINES_PER_CHUNK }, (_, n) => (n === 7 ? '{"params": 1}' : valid(n))),
    );
    const before = await services.accounts.getBalance(org.organization.id, false);
    expect(await driveBatch(services, batch.id, reader)).toBe('admitted');
    // a job line takes 3 writes (job, ledger entry, line), a failed line 1; the balance, the
    // window, the key's spend, the batch and the keys version one summed write per group:
    // 31 job lines and the failed one make 99 writes, one more job line would make 102
    expect(groups).toEqual([32, LINES_PER_CHUNK - 32]);
    const jobs = jobsOf(batch.id);
    expect(jobs).toHaveLength(LINES_PER_CHUNK - 1);
    const reservations = [...services.tables.ledger.values()].filter((entry) => entry.kind === 'reserve');
    expect(reservations.map((entry) => entry.job_id).sort()).toEqual(jobs.map((job) => job.id).sort());
    expect(await services.accounts.getBalance(org.organization.id, false)).toBe(before - jobs.length * 10);
    // the rate limit counts every line, the failed one included
    expect([...services.tables.rateLimitHits.values()].reduce((sum, hits) => sum + hits, 0)).toBe(LINES_PER_CHUNK);
    expect((await services.batches.lines(batch.id, 7, 8))[0]!.error?.code).toBe('parameter_invalid');
    expect(await services.batches.get(batch.id)).toMatchObject({ failed: 1, reserved: jobs.length * 10 });
    await expect
      .poll(() => services.workQueues.standard.sent.length + services.workQueues.fast.sent.length)
      .toBe(jobs.length);
    await expectMoneyInvariants(services, org.organization.id, false);
  });

  it('retries a group the balance cannot cover as a whole line by line, so each line gets its own answer', async () => {
    const poor = await seedOrganization(services, { plan: 'enterprise', startingCredits: { live: 0, test: 155 } });
    const groups = recordLineGroups();
    const batch = await batchOf(
      Array.from({ length: 30 }, (_, n) => valid(n)),
      poor.testKey,
    );
    expect(await driveBatch(services, batch.id, reader)).toBe('admitted');
    // the group was refused whole; the lines then went one transaction each
    expect(groups.every((lines) => lines === 1)).toBe(true);
    const lines = await services.batches.lines(batch.id, 0, 30);
    expect(lines.filter((line) => line.job_id !== null)).toHaveLength(15);
    expect(lines.filter((line) => line.error?.code === 'insufficient_credits')).toHaveLength(15);
    expect(await services.accounts.getBalance(poor.organization.id, false)).toBe(5);
    expect(await services.batches.get(batch.id)).toMatchObject({ failed: 15, reserved: 150 });
    await expectMoneyInvariants(services, poor.organization.id, false);
  });

  it('loses no line and admits none twice when the driver dies after a group committed', async () => {
    const total = 2 * LINES_PER_CHUNK + 5;
    const batch = await batchOf(Array.from({ length: total }, (_, n) => (n % 9 === 0 ? 'not json' : valid(n))));
    faults.arm('batch.after_group');
    await expect(driveBatch(services, batch.id, reader)).rejects.toThrow('injected crash');
    const recorded = await services.batches.lines(batch.id, 0, total);
    expect(recorded.length).toBeGreaterThan(0);
    expect(recorded.length).toBeLessThan(total);
    services.clock.advance((services.config.batchLeaseSeconds + 1) * 1000);
    expect(await driveBatch(services, batch.id, reader)).toBe('admitted');
    const lines = await services.batches.lines(batch.id, 0, total);
    expect(lines.map((line) => line.line)).toEqual(Array.from({ length: total }, (_, n) => n));
    const jobs = jobsOf(batch.id);
    expect(jobs).toHaveLength(total - Math.ceil(total / 9));
    expect(lines.flatMap((line) => (line.job_id ? [line.job_id] : [])).sort()).toEqual(
      jobs.map((job) => job.id).sort(),
    );
    expect(await services.batches.get(batch.id)).toMatchObject({
      failed: Math.ceil(total / 9),
      reserved: jobs.length * 10,
    });
    await expectMoneyInvariants(services, org.organization.id, false);
  });
});

describe("a batch's jobs settled in groups", () => {
  /** The transactions that settled jobs, by how many jobs each settled. */
  function recordSettlementGroups(): number[] {
    const groups: number[] = [];
    const commit = services.uow.commit.bind(services.uow);
    services.uow.commit = async (ops: readonly WriteOp[]) => {
      await commit(ops);
      const settled = ops.filter((op) => op.kind === 'updateJob' && op.leavesQueue).length;
      if (settled > 0) groups.push(settled);
    };
    return groups;
  }

  const settleAll = (jobs: readonly JobRecord[]) =>
    Promise.all(
      jobs.map((job) =>
        settleJob(
          services,
          job,
          { status: 'succeeded', result: { value_eur: 1 }, files: {}, billableUnits: 1 },
          { startedAt: job.created, modelVersion: 'model@1' },
        ),
      ),
    );

  async function admittedJobs(lines: number): Promise<{ batchId: string; jobs: JobRecord[] }> {
    const batch = await batchOf(Array.from({ length: lines }, (_, n) => valid(n)));
    expect(await driveBatch(services, batch.id, reader)).toBe('admitted');
    const jobs = [...services.tables.jobs.values()].filter((job) => job.batch_id === batch.id);
    expect(jobs).toHaveLength(lines);
    return { batchId: batch.id, jobs };
  }

  it('settles the jobs settling at once in one transaction, each with its own charge, ledger entry and event', async () => {
    const { batchId, jobs } = await admittedJobs(30);
    const groups = recordSettlementGroups();
    const settled = await settleAll(jobs);
    // each job its own update, ledger entry and event (3 writes), the batch, the usage row and the
    // endpoint check one summed write: 30 jobs fit one transaction
    expect(groups).toEqual([30]);
    expect(settled.map((job) => job?.status)).toEqual(jobs.map(() => 'succeeded'));
    const commits = [...services.tables.ledger.values()].filter((entry) => entry.kind === 'commit');
    expect(commits.map((entry) => entry.job_id).sort()).toEqual(jobs.map((job) => job.id).sort());
    const events = [...services.tables.events.values()].filter(({ record }) => record.event.type === 'job.succeeded');
    expect(events.map(({ record }) => record.job_id).sort()).toEqual(jobs.map((job) => job.id).sort());
    // the group's last settlement completed the batch: every counter moved once per job
    expect(await services.batches.get(batchId)).toMatchObject({
      status: 'succeeded',
      succeeded: 30,
      reserved: 0,
      charged: 30 * 10,
    });
    await expectMoneyInvariants(services, org.organization.id, false);
  });

  it("shares the checks of the batch's completion among settlements asking at once, never one begun before a caller asked", async () => {
    const { batchId } = await admittedJobs(2);
    let reads = 0;
    const get = services.batches.get.bind(services.batches);
    services.batches.get = (id: string) => {
      if (id === batchId) reads += 1;
      return get(id);
    };
    // asked together: one check reads the batch for both
    await Promise.all([
      completeBatchAfterSettlement(services, batchId),
      completeBatchAfterSettlement(services, batchId),
    ]);
    expect(reads).toBe(1);
    // asked once a check has begun: a check of its own after it (its settlement may have come after the read)
    const first = completeBatchAfterSettlement(services, batchId);
    await vi.waitFor(() => expect(reads).toBe(2));
    await Promise.all([first, completeBatchAfterSettlement(services, batchId)]);
    expect(reads).toBe(3);
  });

  it('settles a group refused as a whole one by one, so a job settled meanwhile is neither charged nor counted twice', async () => {
    const { batchId, jobs } = await admittedJobs(12);
    const [first] = await settleAll(jobs.slice(0, 1));
    expect(first?.status).toBe('succeeded');
    const groups = recordSettlementGroups();
    // the first job again, as a duplicate message would: its update is refused, and with it the group
    const settled = await settleAll(jobs);
    expect(settled[0]).toBeNull();
    expect(settled.slice(1).map((job) => job?.status)).toEqual(jobs.slice(1).map(() => 'succeeded'));
    expect(groups).toEqual(jobs.slice(1).map(() => 1));
    const commits = [...services.tables.ledger.values()].filter((entry) => entry.kind === 'commit');
    expect(commits).toHaveLength(12);
    expect(await services.batches.get(batchId)).toMatchObject({ status: 'succeeded', succeeded: 12, charged: 12 * 10 });
    await expectMoneyInvariants(services, org.organization.id, false);
  });
});
