import { setTimeout as delay } from 'node:timers/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  batchCompletedEvents,
  createBatchOf,
  expectCountsAddUp,
  expectEveryLineOnce,
  finishedBatch,
  outputLines,
  vin,
} from '../../support/batches.js';
import { call, eventually, expectEnvelope } from '../../support/http.js';
import { expectMoneyInvariants } from '../../support/invariants.js';
import { sharedTestService } from '../../support/service.js';
import { uploadFile } from '../../support/uploads.js';

/**
 * Batches through HTTP (docs/internals/batches.md): a 1,000-line test-mode batch of valid, invalid and
 * unaffordable lines, run by the batch state machine's Distributed Map (the local executor), whose
 * counts, output file, ledger and events agree; a file with a line that is not JSON, left to the
 * sweeper; bad input refused with nothing written.
 */
const PRICE = 10; // pricing.vehicle, one call
const AFFORDABLE = 600;
const svc = sharedTestService({ plan: 'enterprise', startingCredits: { live: 0, test: AFFORDABLE * PRICE } });
let orgId: string;
beforeAll(() => {
  orgId = svc.org.organization.id;
});

/** Line n: every fifth is invalid in one of four ways, the rest price a vehicle; every line is JSON, as the map's reader needs. */
function line(n: number): unknown {
  if (n % 5 !== 0) return { custom_id: `row-${n}`, params: { vin: vin(n) } };
  const invalid = [
    `[${n}]`,
    { custom_id: `row-${n}`, params: { vin: 'short' } },
    { custom_id: `row-${n}`, colour: 'red' },
    { custom_id: `row-${n}`, params: {} },
  ];
  return invalid[(n / 5) % invalid.length];
}

describe('a 1,000-line batch', () => {
  it('admits each valid line as its own job, fails bad and unaffordable lines, and its counts, output, ledger and events agree', async () => {
    const total = 1000;
    const created = await createBatchOf(
      svc.baseUrl,
      svc.org.testKey,
      'pricing.vehicle',
      Array.from({ length: total }, (_, n) => line(n)),
    );
    expect(created.status).toBe(202);
    expect(created.body).toMatchObject({
      object: 'batch',
      endpoint: 'pricing.vehicle',
      livemode: false,
      output_file: null,
      completed_at: null,
    });
    expect(created.body.counts).toEqual({ total, queued: total, processing: 0, succeeded: 0, failed: 0, canceled: 0 });
    const id = created.body.id as string;

    // the counts add up at every moment we look
    let seen = created.body;
    while (!['succeeded', 'failed', 'canceled'].includes(seen.status)) {
      expectCountsAddUp(seen);
      await delay(100);
      seen = (await call(svc.baseUrl, 'GET', `/v1/batches/${id}`, { key: svc.org.testKey })).body;
    }
    const batch = await finishedBatch(svc.baseUrl, svc.org.testKey, id);
    const valid = total - total / 5;
    expect(batch.status).toBe('succeeded');
    expect(batch.counts).toEqual({
      total,
      queued: 0,
      processing: 0,
      succeeded: AFFORDABLE,
      failed: total - AFFORDABLE,
      canceled: 0,
    });
    expect(batch.credits).toEqual({ reserved: 0, charged: AFFORDABLE * PRICE });

    // one job per affordable line, none twice; the ledger holds exactly their reservations and charges
    const { lines, jobs } = await expectEveryLineOnce(svc.services, orgId, id, total);
    expect(lines).toHaveLength(total);
    expect(jobs).toHaveLength(AFFORDABLE);
    expect(jobs.every((job) => job.status === 'succeeded')).toBe(true);
    expect(await svc.services.accounts.getBalance(orgId, false)).toBe(0);
    await expectMoneyInvariants(svc.services, orgId, false);

    // the output file: one line per input line, in order, with its 1-based number and its custom_id
    const output = await outputLines(batch.output_file.url);
    expect(output).toHaveLength(total);
    const codes: Record<string, number> = {};
    output.forEach((entry, n) => {
      expect(entry.line).toBe(n + 1);
      if (n % 5 === 0 && n % 20 === 0) expect(entry.custom_id).toBeNull();
      else expect(entry.custom_id).toBe(`row-${n}`);
      if (entry.status === 'succeeded') {
        expect(n % 5).not.toBe(0);
        expect(entry.job_id).toMatch(/^job_/);
        expect(entry.result).toMatchObject({ vehicle: { vin: vin(n) } });
        expect(entry.error).toBeNull();
      } else {
        expect(entry.status).toBe('failed');
        codes[entry.error.code] = (codes[entry.error.code] ?? 0) + 1;
      }
    });
    expect(codes.insufficient_credits).toBe(valid - AFFORDABLE);
    expect(
      (codes.invalid_json ?? 0) +
        (codes.parameter_invalid ?? 0) +
        (codes.parameter_unknown ?? 0) +
        (codes.parameter_missing ?? 0),
    ).toBe(total / 5);

    // the jobs list filters by batch
    const listed = await call(svc.baseUrl, 'GET', `/v1/jobs?batch=${id}&limit=100`, { key: svc.org.testKey });
    expect(listed.status).toBe(200);
    expect(listed.body.data).toHaveLength(100);
    expect(listed.body.has_more).toBe(true);

    // one batch.completed event, carrying the batch as completed
    const events = (await batchCompletedEvents(svc.services, orgId)).filter(
      (event) => (event.data as { batch: { id: string } }).batch.id === id,
    );
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toMatchObject({ batch: { id, status: 'succeeded', counts: batch.counts } });

    // and the batch is listed
    const page = await call(svc.baseUrl, 'GET', '/v1/batches', { key: svc.org.testKey });
    expect(page.body.data.map((b: { id: string }) => b.id)).toContain(id);

    // admitted by the state machine's run, which ends once the batch is marked fully read
    await expect.poll(() => svc.batchOrchestrator.describeNamed(id)).toBe('succeeded');
  }, 180_000);
});

describe('a batch with a line that is not JSON', () => {
  it("is left to the sweeper (the map's reader would not number its lines), which fails that line invalid_json", async () => {
    const lines = [
      { custom_id: 'a', params: { vin: vin(1) } },
      'not json',
      { custom_id: 'c', params: { vin: vin(3) } },
    ];
    const created = await createBatchOf(svc.baseUrl, svc.org.testKey, 'pricing.vehicle', lines);
    expect(created.status).toBe(202);
    const id = created.body.id as string;
    expect(svc.batchOrchestrator.describeNamed(id)).toBe('unknown');
    expect((await call(svc.baseUrl, 'GET', `/v1/batches/${id}`, { key: svc.org.testKey })).body.status).toBe(
      'validating',
    );

    // the batch's first lease runs out (the clock moves instead of the test waiting) and the sweeper takes it
    svc.clock.advance((svc.services.config.batchLeaseSeconds + 1) * 1000);
    await eventually(async () => ((await svc.sweeper.sweep())?.batches ?? 0) > 0);
    const batch = await finishedBatch(svc.baseUrl, svc.org.testKey, id);
    expect(batch.counts.total).toBe(3);
    // the organisation's credits went to the 1,000-line batch: the valid lines fail insufficient_credits
    const output = await outputLines(batch.output_file.url);
    expect(output.map((entry) => entry.custom_id)).toEqual(['a', null, 'c']);
    expect(output[1]).toMatchObject({ status: 'failed', error: { code: 'invalid_json' } });
  });
});

describe('bad input', () => {
  async function nothingWritten(run: () => Promise<void>) {
    const before = await svc.services.batches.list({ orgId, livemode: false, limit: 100 });
    await run();
    const after = await svc.services.batches.list({ orgId, livemode: false, limit: 100 });
    expect(after.items.length).toBe(before.items.length);
  }

  it('refuses an unknown endpoint, a missing, foreign or non-JSONL upload and too many lines, writing nothing', async () => {
    const jsonl = await uploadFile(svc.baseUrl, svc.org.testKey, 'application/jsonl', Buffer.from('{"params":{}}\n'));
    const post = (json: unknown, key = svc.org.testKey) => call(svc.baseUrl, 'POST', '/v1/batches', { key, json });
    await nothingWritten(async () => {
      expectEnvelope(
        await post({ endpoint: 'vehicle.teleport', input_file: jsonl }),
        400,
        'invalid_request',
        'parameter_invalid',
        'endpoint',
      );
      expectEnvelope(
        await post({ endpoint: 'inspections', input_file: jsonl }),
        400,
        'invalid_request',
        'parameter_invalid',
        'endpoint',
      );
      expectEnvelope(
        await post({ endpoint: 'pricing.vehicle', input_file: 'upl_doesnotexist' }),
        400,
        'invalid_request',
        'upload_not_found',
        'input_file',
      );
      expectEnvelope(
        await post({ endpoint: 'pricing.vehicle', input_file: jsonl }, svc.otherOrg.testKey),
        400,
        'invalid_request',
        'upload_not_found',
        'input_file',
      );
      expectEnvelope(
        await post({ endpoint: 'pricing.vehicle', input_file: jsonl }, svc.org.liveKey),
        400,
        'invalid_request',
        'upload_not_found',
        'input_file',
      );
      expectEnvelope(
        await post({ endpoint: 'pricing.vehicle' }),
        400,
        'invalid_request',
        'parameter_missing',
        'input_file',
      );
      const image = await uploadFile(svc.baseUrl, svc.org.testKey, 'image/jpeg', Buffer.alloc(64, 1));
      expectEnvelope(
        await post({ endpoint: 'pricing.vehicle', input_file: image }),
        400,
        'invalid_request',
        'parameter_invalid',
        'input_file',
      );
      const tooMany = await uploadFile(
        svc.baseUrl,
        svc.org.testKey,
        'application/jsonl',
        Buffer.from('{}\n'.repeat(10_001)),
      );
      expectEnvelope(
        await post({ endpoint: 'pricing.vehicle', input_file: tooMany }),
        400,
        'invalid_request',
        'parameter_invalid',
        'input_file',
      );
      const notText = await uploadFile(
        svc.baseUrl,
        svc.org.testKey,
        'application/jsonl',
        Buffer.from([0xff, 0xfe, 0x00, 0x0a]),
      );
      expectEnvelope(
        await post({ endpoint: 'pricing.vehicle', input_file: notText }),
        400,
        'invalid_request',
        'parameter_invalid',
        'input_file',
      );
    });
    // the refused upload is still unused: a good request takes it
    const good = await post({ endpoint: 'pricing.vehicle', input_file: jsonl });
    expect(good.status).toBe(202);
    expectEnvelope(
      await post({ endpoint: 'pricing.vehicle', input_file: jsonl }),
      409,
      'conflict',
      'upload_already_consumed',
      'input_file',
    );
    await finishedBatch(svc.baseUrl, svc.org.testKey, good.body.id);
  });

  it('answers 404 for an unknown batch and 403 for another organisation’s', async () => {
    expectEnvelope(
      await call(svc.baseUrl, 'GET', '/v1/batches/bat_unknown', { key: svc.org.testKey }),
      404,
      'not_found',
      'batch_not_found',
      'id',
    );
    const mine = await createBatchOf(svc.baseUrl, svc.org.testKey, 'pricing.vehicle', [{ params: { vin: vin(1) } }]);
    expectEnvelope(
      await call(svc.baseUrl, 'GET', `/v1/batches/${mine.body.id}`, { key: svc.otherOrg.testKey }),
      403,
      'permission',
      'scope_not_granted',
      null,
    );
    const done = await finishedBatch(svc.baseUrl, svc.org.testKey, mine.body.id);
    expectEnvelope(
      await call(svc.baseUrl, 'POST', `/v1/batches/${done.id}/cancel`, { key: svc.org.testKey }),
      409,
      'conflict',
      'batch_not_cancelable',
      'id',
    );
  });
});
