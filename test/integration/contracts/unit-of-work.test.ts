import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { buildContainer } from '../../../lambdas/composition/container.js';
import { createOrganization, type SeededOrganization } from '../../../lambdas/domain/access/organizations.js';
import { keySpendOps, spendCounterOf } from '../../../lambdas/domain/access/spend-limits.js';
import { type BatchRecord, ZERO_COUNTERS } from '../../../lambdas/domain/batches/batch.js';
import { randomId, timeOrderedId } from '../../../lambdas/domain/kernel/ids.js';
import type { LedgerEntry } from '../../../lambdas/domain/money/ledger.js';
import type { IdempotencyRecord } from '../../../lambdas/domain/ports/access.js';
import type { Services } from '../../../lambdas/domain/ports/services.js';
import {
  MAX_ITEM_BYTES,
  MAX_TRANSACTION_WRITES,
  TransactionInvalid,
  TransactionRefused,
  type WriteOp,
} from '../../../lambdas/domain/ports/transactions.js';
import type { EventRecord } from '../../../lambdas/domain/webhooks/records.js';
import { ensureTable } from '../../../local/provision.js';
import { inMemoryServices } from '../../support/in-memory/services.js';
import { liveJobRecord } from '../../support/live-job.js';

// One contract for the two interpreters of `WriteOp`: the DynamoDB unit of work (on DynamoDB Local,
// which behaves as DynamoDB does) and the in-memory one every unit test runs on. Each case runs on
// both and observes effects through the domain's read ports only, so a disagreement is a failure here.

interface World {
  services: Services;
  org: SeededOrganization;
}

async function dynamoWorld(): Promise<World> {
  const standIns = inject('standIns');
  const tableName = `uow${randomBytes(5).toString('hex')}`;
  const services = buildContainer({
    infrastructure: {
      region: 'us-east-1',
      tableName,
      bucketName: 'unused',
      workQueueUrl: `${standIns.sqs}/000000000000/unused`,
      webhookQueueUrl: `${standIns.sqs}/000000000000/unused`,
      endpoints: standIns,
      credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    },
  });
  await ensureTable(services.clients.dynamodb, tableName);
  return { services, org: await createOrganization(services, { name: 'Contract', plan: 'pro' }) };
}

async function inMemoryWorld(): Promise<World> {
  const services = inMemoryServices();
  return { services, org: await createOrganization(services, { name: 'Contract', plan: 'pro' }) };
}

const NOW = 1_760_000_000;

function batchRecord(orgId: string, overrides: Partial<BatchRecord> = {}): BatchRecord {
  const id = randomId('bat');
  return {
    id,
    org_id: orgId,
    livemode: false,
    api_key_id: 'key_1111111111111111',
    secret_hash: 'ab'.repeat(32),
    endpoint: 'plate.read',
    input_file: randomId('upl'),
    input_object_key: `uploads/${orgId}/${id}`,
    status: 'running',
    total: 3,
    ...ZERO_COUNTERS,
    cursor: 0,
    stopped_at: null,
    cancel_requested: false,
    lease_token: 'lease-a',
    lease_until: NOW + 60,
    created: NOW,
    completed_at: null,
    output_key: null,
    ...overrides,
  };
}

function ledgerEntry(orgId: string, amount: number): LedgerEntry {
  return {
    id: randomId('led'),
    object: 'ledger_entry',
    org_id: orgId,
    kind: 'adjustment',
    amount,
    job_id: null,
    livemode: false,
    created: NOW,
    reference: null,
  };
}

function eventRecord(orgId: string): EventRecord {
  const jobId = randomId('job');
  return {
    event: {
      id: randomId('evt'),
      object: 'event',
      type: 'job.succeeded',
      api_version: '2026-01-01',
      created: NOW,
      data: { job: { id: jobId } as never, stage: null },
    },
    org_id: orgId,
    job_id: jobId,
    livemode: false,
    dispatched: false,
  };
}

function idempotencyRecord(scopeKey: string, lockToken: string): IdempotencyRecord {
  return {
    scope_key: scopeKey,
    fingerprint: 'f'.repeat(64),
    status: 'in_progress',
    lock_token: lockToken,
    lock_expires_at: NOW + 60,
    expires_at: NOW + 86_400,
    response: null,
  };
}

const newJob = (orgId: string, overrides: Parameters<typeof liveJobRecord>[1] = {}) =>
  liveJobRecord(timeOrderedId('job', NOW * 1000), { org_id: orgId, ...overrides });

/** What a refused commit names, in the order the ops were given (DynamoDB's reasons come per item). */
async function refusal(services: Services, ops: WriteOp[]): Promise<string[]> {
  const error = await services.uow.commit(ops).then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(TransactionRefused);
  return [...(error as TransactionRefused).refusedOps].sort();
}

describe.each([
  { interpreter: 'DynamoDB (DynamoDB Local)', start: dynamoWorld },
  { interpreter: 'in memory', start: inMemoryWorld },
])('the unit of work, $interpreter', ({ start }) => {
  let world: World;
  let services: Services;
  let orgId: string;
  beforeAll(async () => {
    world = await start();
    services = world.services;
    orgId = world.org.organization.id;
  });

  describe('the due jobs, read a page at a time', () => {
    it('every due job once, in re-drive order, across the shards; a page after the last is empty', async () => {
      // long before every other case's jobs are due, so this case sees its own only
      const from = NOW - 100_000;
      const jobs = Array.from({ length: 250 }, (_, n) =>
        newJob(orgId, { redrive_at: from + (n % 40), queue_deadline: NOW + 900 }),
      );
      for (let i = 0; i < jobs.length; i += 25)
        await services.uow.commit(jobs.slice(i, i + 25).map((job) => ({ kind: 'createJob' as const, job })));
      const seen: string[] = [];
      const dueTimes: number[] = [];
      let after: string | null = null;
      let pages = 0;
      do {
        const page = await services.jobs.listDue(from + 60, 100, after);
        seen.push(...page.jobs.map((job) => job.id));
        dueTimes.push(...page.jobs.map((job) => job.redrive_at));
        after = page.next;
        pages += 1;
      } while (after !== null);
      expect(pages).toBe(3);
      expect([...seen].sort()).toEqual(jobs.map((job) => job.id).sort());
      expect(dueTimes).toEqual([...dueTimes].sort((a, b) => a - b));
    });
  });

  describe('leases', () => {
    it('one holder at a time until it lets go or its time runs out; a stranger cannot let go of it', async () => {
      const name = `contract-${randomBytes(3).toString('hex')}`;
      const at = 1_000_000;
      expect(await services.leases.take(name, 'first', at + 60_000, at)).toBe(true);
      expect(await services.leases.take(name, 'second', at + 70_000, at + 59_999)).toBe(false);
      await services.leases.release(name, 'second');
      expect(await services.leases.take(name, 'second', at + 70_000, at + 1)).toBe(false);
      // run out: taken over
      expect(await services.leases.take(name, 'second', at + 120_000, at + 60_000)).toBe(true);
      // the first holder, late, lets go of nothing that is not its own
      await services.leases.release(name, 'first');
      expect(await services.leases.take(name, 'third', at + 130_000, at + 60_001)).toBe(false);
      await services.leases.release(name, 'second');
      expect(await services.leases.take(name, 'third', at + 130_000, at + 60_001)).toBe(true);
    });
  });

  describe('createJob', () => {
    it('writes the job, due for the sweeper at its earlier of redrive and queue deadline', async () => {
      const job = newJob(orgId, { redrive_at: NOW + 30, queue_deadline: NOW + 900 });
      await services.uow.commit([{ kind: 'createJob', job }]);
      expect(await services.jobs.get(job.id)).toEqual(job);
      expect((await services.jobs.listDue(NOW + 29, 1000)).jobs.map(({ id }) => id)).not.toContain(job.id);
      expect((await services.jobs.listDue(NOW + 30, 1000)).jobs.map(({ id }) => id)).toContain(job.id);
    });

    it('refuses a job whose id exists, and leaves the first as it was', async () => {
      const job = newJob(orgId);
      await services.uow.commit([{ kind: 'createJob', job }]);
      expect(await refusal(services, [{ kind: 'createJob', job: { ...job, endpoint: 'vin.read' } }])).toEqual([
        'createJob',
      ]);
      expect((await services.jobs.get(job.id))?.endpoint).toBe('plate.read');
    });
  });

  describe('updateJob', () => {
    it('sets fields when the job is in an expected status', async () => {
      const job = newJob(orgId);
      await services.uow.commit([{ kind: 'createJob', job }]);
      await services.uow.commit([
        {
          kind: 'updateJob',
          jobId: job.id,
          expectStatus: ['queued'],
          set: { status: 'processing', started_at: NOW + 1 },
          leavesQueue: false,
        },
      ]);
      expect(await services.jobs.get(job.id)).toEqual({ ...job, status: 'processing', started_at: NOW + 1 });
    });

    it('refuses another status, a missing job, and an unmet field expectation', async () => {
      const job = newJob(orgId, { stages_started: 2 });
      await services.uow.commit([{ kind: 'createJob', job }]);
      const update = (over: Partial<Extract<WriteOp, { kind: 'updateJob' }>>): WriteOp => ({
        kind: 'updateJob',
        jobId: job.id,
        expectStatus: ['queued'],
        set: { status: 'canceled' },
        leavesQueue: true,
        ...over,
      });
      expect(await refusal(services, [update({ expectStatus: ['processing', 'succeeded'] })])).toEqual(['updateJob']);
      expect(await refusal(services, [update({ jobId: randomId('job') })])).toEqual(['updateJob']);
      expect(await refusal(services, [update({ expectFields: { stages_started: 3 } })])).toEqual(['updateJob']);
      expect(await refusal(services, [update({ expectFields: { stages_recorded: 0 } })])).toEqual(['updateJob']);
      expect((await services.jobs.get(job.id))?.status).toBe('queued');
      await services.uow.commit([update({ expectFields: { stages_started: 2 } })]);
      expect((await services.jobs.get(job.id))?.status).toBe('canceled');
    });

    it('takes a job that leaves the queue off the sweeper’s list', async () => {
      const job = newJob(orgId, { redrive_at: NOW, queue_deadline: NOW });
      await services.uow.commit([{ kind: 'createJob', job }]);
      await services.uow.commit([
        { kind: 'updateJob', jobId: job.id, expectStatus: ['queued'], set: { status: 'canceled' }, leavesQueue: true },
      ]);
      expect((await services.jobs.listDue(NOW + 3600, 1000)).jobs.map(({ id }) => id)).not.toContain(job.id);
    });
  });

  describe('moveBalance', () => {
    it('adds a delta to the mode’s balance, and may take it below zero unless told not to', async () => {
      const before = await services.accounts.getBalance(orgId, false);
      await services.uow.commit([
        { kind: 'moveBalance', orgId, livemode: false, delta: -before - 5, mustStayNonNegative: false },
      ]);
      expect(await services.accounts.getBalance(orgId, false)).toBe(-5);
      expect(
        await refusal(services, [
          { kind: 'moveBalance', orgId, livemode: false, delta: -1, mustStayNonNegative: true },
        ]),
      ).toEqual(['moveBalance']);
      await services.uow.commit([
        { kind: 'moveBalance', orgId, livemode: false, delta: before + 5, mustStayNonNegative: true },
      ]);
      expect(await services.accounts.getBalance(orgId, false)).toBe(before);
    });

    it('lets a reservation take the balance to exactly zero and no further', async () => {
      const balance = await services.accounts.getBalance(orgId, true);
      const reserve = (delta: number): WriteOp => ({
        kind: 'moveBalance',
        orgId,
        livemode: true,
        delta,
        mustStayNonNegative: true,
      });
      expect(await refusal(services, [reserve(-balance - 1)])).toEqual(['moveBalance']);
      await services.uow.commit([reserve(-balance)]);
      expect(await services.accounts.getBalance(orgId, true)).toBe(0);
      await services.uow.commit([reserve(balance)]);
    });

    it('refuses a balance that does not exist', async () => {
      expect(
        await refusal(services, [
          { kind: 'moveBalance', orgId: randomId('org'), livemode: false, delta: 1, mustStayNonNegative: false },
        ]),
      ).toEqual(['moveBalance']);
    });
  });

  describe('appendLedger', () => {
    it('appends an entry the ledger lists, and refuses its id twice', async () => {
      const entry = ledgerEntry(orgId, 42);
      await services.uow.commit([{ kind: 'appendLedger', entry }]);
      const listed = await services.accounts.listLedger({ orgId, livemode: false, limit: 100 });
      expect(listed.items).toContainEqual(entry);
      expect(await refusal(services, [{ kind: 'appendLedger', entry: { ...entry, amount: 1 } }])).toEqual([
        'appendLedger',
      ]);
    });
  });

  describe('consumeUpload', () => {
    it('marks an upload consumed by a job once; a second use and a missing upload are refused', async () => {
      const ref = randomId('upl');
      await services.uploads.put({
        upload_ref: ref,
        org_id: orgId,
        livemode: false,
        content_type: 'image/jpeg',
        size_bytes: 10,
        filename: null,
        object_key: `uploads/${orgId}/${ref}`,
        created: NOW,
        expires_at: NOW + 3600,
        consumed_by: null,
      });
      const first = randomId('job');
      await services.uow.commit([{ kind: 'consumeUpload', uploadRef: ref, jobId: first }]);
      expect((await services.uploads.get(ref))?.consumed_by).toBe(first);
      expect(await refusal(services, [{ kind: 'consumeUpload', uploadRef: ref, jobId: randomId('job') }])).toEqual([
        'consumeUpload',
      ]);
      expect(
        await refusal(services, [{ kind: 'consumeUpload', uploadRef: randomId('upl'), jobId: randomId('job') }]),
      ).toEqual(['consumeUpload']);
      expect((await services.uploads.get(ref))?.consumed_by).toBe(first);
    });
  });

  describe('completeIdempotency', () => {
    it('stores the answer under the claim that holds the key, and refuses a lost claim', async () => {
      const scopeKey = `${orgId}#${randomBytes(6).toString('hex')}`;
      expect(await services.idempotency.claim(idempotencyRecord(scopeKey, 'lock-a'), NOW)).toBeNull();
      const response = { status: 201, contentType: 'application/json', body: { id: 'x', nested: [1, { a: true }] } };
      expect(
        await refusal(services, [{ kind: 'completeIdempotency', scopeKey, lockToken: 'lock-b', response }]),
      ).toEqual(['completeIdempotency']);
      await services.uow.commit([
        { kind: 'completeIdempotency', scopeKey, lockToken: 'lock-a', response, settlingUntil: NOW + 25 },
      ]);
      expect(await services.idempotency.claim(idempotencyRecord(scopeKey, 'lock-c'), NOW)).toMatchObject({
        status: 'completed',
        lock_token: 'lock-a',
        response,
        settling_until: NOW + 25,
      });
      await services.uow.commit([{ kind: 'completeIdempotency', scopeKey, lockToken: 'lock-a', response }]);
      const held = await services.idempotency.claim(idempotencyRecord(scopeKey, 'lock-d'), NOW);
      expect(held).toMatchObject({ status: 'completed', response });
      expect(held).not.toHaveProperty('settling_until');
    });

    it('refuses a key that was never claimed', async () => {
      const response = { status: 200, contentType: 'application/json', body: {} };
      expect(
        await refusal(services, [
          { kind: 'completeIdempotency', scopeKey: `${orgId}#never`, lockToken: 'x', response },
        ]),
      ).toEqual(['completeIdempotency']);
    });
  });

  describe('bumpUsage', () => {
    it('creates the day’s row on first use and adds to it afterwards', async () => {
      const bump = (deltas: Extract<WriteOp, { kind: 'bumpUsage' }>['deltas']): WriteOp => ({
        kind: 'bumpUsage',
        orgId,
        date: '2026-08-03',
        endpoint: 'vin.read',
        livemode: true,
        deltas,
      });
      await services.uow.commit([bump({ requests: 1 })]);
      await services.uow.commit([bump({ requests: 1, succeeded: 1, billable_units: 3, credits_charged: 6 })]);
      const rows = await services.usage.list({ orgId, from: '2026-08-03', to: '2026-08-03', endpoint: 'vin.read' });
      expect(rows).toEqual([
        {
          date: '2026-08-03',
          endpoint: 'vin.read',
          livemode: true,
          requests: 2,
          succeeded: 1,
          failed: 0,
          expired: 0,
          canceled: 0,
          billable_units: 3,
          credits_charged: 6,
        },
      ]);
    });
  });

  describe('claimProviderEvent', () => {
    it('applies a provider’s event once', async () => {
      const claim: WriteOp = {
        kind: 'claimProviderEvent',
        provider: 'stripe',
        eventId: randomId('evt'),
        orgId,
        at: NOW,
      };
      await services.uow.commit([claim]);
      expect(await refusal(services, [claim])).toEqual(['claimProviderEvent']);
    });
  });

  describe('updateOrganization', () => {
    it('sets an organisation’s fields, and refuses one that does not exist', async () => {
      await services.uow.commit([{ kind: 'updateOrganization', orgId, set: { storage_retention_days: 7 } }]);
      expect((await services.accounts.getOrganization(orgId))?.storage_retention_days).toBe(7);
      expect(
        await refusal(services, [{ kind: 'updateOrganization', orgId: randomId('org'), set: { plan: 'free' } }]),
      ).toEqual(['updateOrganization']);
    });
  });

  describe('createEvent', () => {
    it('writes the event, overdue for dispatch from its due time, and refuses its id twice', async () => {
      const record = eventRecord(orgId);
      await services.uow.commit([{ kind: 'createEvent', record, dispatchDueAt: NOW + 10 }]);
      expect(await services.webhooks.getEvent(record.event.id)).toEqual(record);
      expect((await services.webhooks.listOverdue(NOW + 9, 1000)).eventIds).not.toContain(record.event.id);
      expect((await services.webhooks.listOverdue(NOW + 10, 1000)).eventIds).toContain(record.event.id);
      expect(await refusal(services, [{ kind: 'createEvent', record, dispatchDueAt: null }])).toEqual(['createEvent']);
    });

    it('writes an event already dispatched off the overdue list', async () => {
      const record = { ...eventRecord(orgId), dispatched: true };
      await services.uow.commit([{ kind: 'createEvent', record, dispatchDueAt: null }]);
      expect(await services.webhooks.getEvent(record.event.id)).toEqual(record);
      expect((await services.webhooks.listOverdue(NOW + 3600, 1000)).eventIds).not.toContain(record.event.id);
    });
  });

  describe('expectNoWebhookEndpoints', () => {
    it('holds for an organisation without endpoints; refused once it has one, or when it does not exist', async () => {
      const fresh = await createOrganization(services, { name: 'Endpoints' });
      const freshId = fresh.organization.id;
      await services.uow.commit([{ kind: 'expectNoWebhookEndpoints', orgId: freshId }]);
      await services.webhooks.putEndpoint({
        id: randomId('whe'),
        org_id: freshId,
        livemode: false,
        url: 'https://example.com/hook',
        enabled_events: ['job.succeeded'],
        description: null,
        api_version: '2026-01-01',
        status: 'enabled',
        created: NOW,
        secrets: [{ secret: `whsec_${randomBytes(32).toString('base64')}`, expires_at: null }],
      });
      expect(await refusal(services, [{ kind: 'expectNoWebhookEndpoints', orgId: freshId }])).toEqual([
        'expectNoWebhookEndpoints',
      ]);
      expect(await refusal(services, [{ kind: 'expectNoWebhookEndpoints', orgId: randomId('org') }])).toEqual([
        'expectNoWebhookEndpoints',
      ]);
    });
  });

  describe('expectKeysVersion', () => {
    it('holds until a key of the mode is revoked, alone or folded into that balance’s move', async () => {
      const fresh = await createOrganization(services, { name: 'Keys' });
      const freshId = fresh.organization.id;
      const expect0: WriteOp = { kind: 'expectKeysVersion', orgId: freshId, livemode: true, version: 0 };
      const move: WriteOp = {
        kind: 'moveBalance',
        orgId: freshId,
        livemode: true,
        delta: 0,
        mustStayNonNegative: true,
      };
      await services.uow.commit([expect0]);
      await services.uow.commit([move, expect0]);
      const [liveKey] = (await services.accounts.listApiKeys(freshId)).filter((key) => key.livemode);
      await services.accounts.revokeApiKey(freshId, liveKey!.id, NOW);
      expect(await refusal(services, [expect0])).toEqual(['expectKeysVersion']);
      expect(await refusal(services, [move, expect0])).toEqual(['expectKeysVersion']);
      const tooMuch: WriteOp = { ...move, delta: -1_000_000 } as WriteOp;
      expect(await refusal(services, [tooMuch, expect0])).toEqual(['expectKeysVersion', 'moveBalance']);
      await services.uow.commit([move, { ...expect0, version: 1 } as WriteOp]);
      // the other mode's version did not move
      await services.uow.commit([{ ...expect0, livemode: false } as WriteOp]);
    });
  });

  describe('countRequest', () => {
    it('counts hits up to the limit and refuses the next; a limit of none refuses the first', async () => {
      const counterKey = `${orgId}#plate.read#test#${randomBytes(4).toString('hex')}`;
      const hit: WriteOp = { kind: 'countRequest', counterKey, limit: 2, expiresAt: NOW + 60 };
      await services.uow.commit([hit]);
      await services.uow.commit([hit]);
      expect(await refusal(services, [hit])).toEqual(['countRequest']);
      expect(await services.rateLimitCounter.read(counterKey)).toBe(2);
      expect(await refusal(services, [{ ...hit, counterKey: `${counterKey}-none`, limit: 0 } as WriteOp])).toEqual([
        'countRequest',
      ]);
      expect(await services.rateLimitCounter.read(`${counterKey}-none`)).toBe(0);
    });
  });

  describe('countKeySpend', () => {
    const keyId = () => randomId('key');

    it('moves the day and month counters together, and releases take them back', async () => {
      const key = keyId();
      const counters = [spendCounterOf(key, 'day', NOW), spendCounterOf(key, 'month', NOW)];
      await services.uow.commit(keySpendOps(key, NOW, 30));
      await services.uow.commit(keySpendOps(key, NOW, -10));
      expect(await services.accounts.readKeySpend(counters)).toEqual([20, 20]);
    });

    it('refuses a spend that would pass the limit, the first of the period included, and allows one up to it', async () => {
      const limit = { credits: 50, period: 'day' } as const;
      const first = keyId();
      expect(await refusal(services, keySpendOps(first, NOW, 51, limit))).toEqual(['countKeySpend']);
      expect(await services.accounts.readKeySpend([spendCounterOf(first, 'day', NOW)])).toEqual([0]);
      const second = keyId();
      await services.uow.commit(keySpendOps(second, NOW, 40, limit));
      expect(await refusal(services, keySpendOps(second, NOW, 11, limit))).toEqual(['countKeySpend']);
      await services.uow.commit(keySpendOps(second, NOW, 10, limit));
      expect(await services.accounts.readKeySpend([spendCounterOf(second, 'day', NOW)])).toEqual([50]);
    });
  });

  describe('createBatch, updateBatch, putBatchLine', () => {
    it('creates a batch once', async () => {
      const batch = batchRecord(orgId);
      await services.uow.commit([{ kind: 'createBatch', batch }]);
      expect(await services.batches.get(batch.id)).toEqual(batch);
      expect(await refusal(services, [{ kind: 'createBatch', batch }])).toEqual(['createBatch']);
    });

    it('sets fields and adds counters under the lease that holds it', async () => {
      const batch = batchRecord(orgId);
      await services.uow.commit([{ kind: 'createBatch', batch }]);
      await services.uow.commit([
        {
          kind: 'updateBatch',
          batchId: batch.id,
          set: { cursor: 2 },
          add: { processing: 2, reserved: 8 },
          expectStatus: ['running'],
          expectLease: { token: 'lease-a' },
        },
      ]);
      expect(await services.batches.get(batch.id)).toEqual({ ...batch, cursor: 2, processing: 2, reserved: 8 });
      const refusedUpdates: Array<Partial<Extract<WriteOp, { kind: 'updateBatch' }>>> = [
        { expectLease: { token: 'lease-b' } },
        { expectStatus: ['validating', 'succeeded'] },
        { batchId: randomId('bat') },
        { expectLease: { freeAt: NOW + 59 } },
      ];
      for (const over of refusedUpdates)
        expect(
          await refusal(services, [{ kind: 'updateBatch', batchId: batch.id, add: { failed: 1 }, ...over } as WriteOp]),
        ).toEqual(['updateBatch']);
      expect((await services.batches.get(batch.id))?.failed).toBe(0);
    });

    it('lets another driver take a lease that has run out, or one nobody holds', async () => {
      const held = batchRecord(orgId);
      const free = batchRecord(orgId, { lease_token: null });
      await services.uow.commit([
        { kind: 'createBatch', batch: held },
        { kind: 'createBatch', batch: free },
      ]);
      const takeOver = (batchId: string): WriteOp => ({
        kind: 'updateBatch',
        batchId,
        set: { lease_token: 'lease-z', lease_until: NOW + 500 },
        expectLease: { freeAt: NOW + 60 },
      });
      await services.uow.commit([takeOver(held.id), takeOver(free.id)]);
      expect(await services.batches.get(held.id)).toMatchObject({ lease_token: 'lease-z', lease_until: NOW + 500 });
      expect(await services.batches.get(free.id)).toMatchObject({ lease_token: 'lease-z' });
    });

    it('moves a batch on the sweeper’s list with its lease, and off it when it leaves', async () => {
      const batch = batchRecord(orgId, { lease_until: NOW + 100 });
      await services.uow.commit([{ kind: 'createBatch', batch }]);
      const due = async (at: number) => (await services.batches.listDue(at, 1000)).map(({ id }) => id);
      expect(await due(NOW + 100)).toContain(batch.id);
      await services.uow.commit([{ kind: 'updateBatch', batchId: batch.id, set: { lease_until: NOW + 200 } }]);
      expect(await due(NOW + 199)).not.toContain(batch.id);
      expect(await due(NOW + 200)).toContain(batch.id);
      await services.uow.commit([
        {
          kind: 'updateBatch',
          batchId: batch.id,
          set: { status: 'succeeded', completed_at: NOW + 300, lease_token: null },
          leavesDue: true,
        },
      ]);
      expect(await due(NOW + 10_000)).not.toContain(batch.id);
    });

    it('records a line’s outcome once', async () => {
      const batch = batchRecord(orgId);
      await services.uow.commit([{ kind: 'createBatch', batch }]);
      const line = { batch_id: batch.id, line: 2, custom_id: 'c-2', job_id: randomId('job'), error: null };
      const failed = {
        batch_id: batch.id,
        line: 1,
        custom_id: null,
        job_id: null,
        error: { type: 'invalid_request', code: 'parameter_missing', message: 'x', param: 'input_ref' } as const,
      };
      await services.uow.commit([
        { kind: 'putBatchLine', line },
        { kind: 'putBatchLine', line: failed },
      ]);
      expect(await services.batches.lines(batch.id, 1, 3)).toEqual([failed, line]);
      expect(await refusal(services, [{ kind: 'putBatchLine', line: { ...line, custom_id: 'other' } }])).toEqual([
        'putBatchLine',
      ]);
    });
  });

  describe('all or nothing', () => {
    it('applies nothing when one op refuses, and names every op that refused', async () => {
      const job = newJob(orgId);
      const before = await services.accounts.getBalance(orgId, false);
      const entry = ledgerEntry(orgId, -3);
      const claim: WriteOp = {
        kind: 'claimProviderEvent',
        provider: 'stripe',
        eventId: randomId('evt'),
        orgId,
        at: NOW,
      };
      await services.uow.commit([claim]);
      expect(
        await refusal(services, [
          { kind: 'createJob', job },
          { kind: 'moveBalance', orgId, livemode: false, delta: -3, mustStayNonNegative: true },
          { kind: 'appendLedger', entry },
          claim,
          { kind: 'consumeUpload', uploadRef: randomId('upl'), jobId: job.id },
        ]),
      ).toEqual(['claimProviderEvent', 'consumeUpload']);
      expect(await services.jobs.get(job.id)).toBeNull();
      expect(await services.accounts.getBalance(orgId, false)).toBe(before);
      const listed = await services.accounts.listLedger({ orgId, livemode: false, limit: 100 });
      expect(listed.items.map(({ id }) => id)).not.toContain(entry.id);
    });
  });

  describe('DynamoDB’s own limits', () => {
    const invalid = async (ops: WriteOp[], message: RegExp) => {
      const error = await services.uow.commit(ops).then(
        () => null,
        (thrown: unknown) => thrown,
      );
      expect(error).toBeInstanceOf(TransactionInvalid);
      expect((error as Error).message).toMatch(message);
    };

    it(`takes ${MAX_TRANSACTION_WRITES} writes in one transaction and refuses one more, writing nothing`, async () => {
      const claims = (n: number): WriteOp[] =>
        Array.from({ length: n }, () => ({
          kind: 'claimProviderEvent',
          provider: 'limit',
          eventId: randomId('evt'),
          orgId,
          at: NOW,
        }));
      const over = claims(MAX_TRANSACTION_WRITES + 1);
      await invalid(over, /less than or equal to 100/);
      // none of the 101 was written: each can still be claimed
      await services.uow.commit(over.slice(0, MAX_TRANSACTION_WRITES));
      await services.uow.commit(over.slice(MAX_TRANSACTION_WRITES));
    });

    it('refuses a transaction that writes one item twice', async () => {
      const job = newJob(orgId);
      await invalid(
        [
          { kind: 'createJob', job },
          {
            kind: 'updateJob',
            jobId: job.id,
            expectStatus: ['queued'],
            set: { status: 'canceled' },
            leavesQueue: true,
          },
        ],
        /multiple operations on one item/,
      );
      await invalid(
        [
          { kind: 'moveBalance', orgId, livemode: false, delta: -1, mustStayNonNegative: true },
          { kind: 'moveBalance', orgId, livemode: false, delta: 1, mustStayNonNegative: true },
        ],
        /multiple operations on one item/,
      );
      expect(await services.jobs.get(job.id)).toBeNull();
    });

    it('refuses a new item over 400 KB and takes one well under it', async () => {
      const result = (bytes: number) => ({ text: 'x'.repeat(bytes) });
      const tooBig = newJob(orgId, { result: result(MAX_ITEM_BYTES) });
      await invalid([{ kind: 'createJob', job: tooBig }], /size has exceeded/);
      expect(await services.jobs.get(tooBig.id)).toBeNull();
      const fits = newJob(orgId, { result: result(MAX_ITEM_BYTES - 4096) });
      await services.uow.commit([{ kind: 'createJob', job: fits }]);
      expect((await services.jobs.get(fits.id))?.result).toEqual(fits.result);
    });

    it('refuses an update that grows an item past 400 KB, never retrying it, and leaves the item as it was', async () => {
      const job = newJob(orgId);
      await services.uow.commit([{ kind: 'createJob', job }]);
      const started = Date.now();
      await invalid(
        [
          {
            kind: 'updateJob',
            jobId: job.id,
            expectStatus: ['queued'],
            set: { status: 'succeeded', result: { text: 'x'.repeat(MAX_ITEM_BYTES) } },
            leavesQueue: true,
          },
        ],
        /size/,
      );
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(await services.jobs.get(job.id)).toEqual(job);
    });
  });
});
