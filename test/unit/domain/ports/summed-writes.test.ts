import { describe, expect, it } from 'vitest';
import {
  fitsOneTransaction,
  sumSharedWrites,
  UnsummableWrites,
} from '../../../../lambdas/domain/ports/summed-writes.js';
import {
  MAX_TRANSACTION_WRITES,
  TransactionInvalid,
  TransactionRefused,
  type WriteOp,
} from '../../../../lambdas/domain/ports/transactions.js';
import { inMemoryServices } from '../../../support/in-memory/services.js';
import { balanceKey } from '../../../support/in-memory/tables.js';

// A transaction touches an item once: a group of lines commits its writes to one shared item as
// their sum (docs/internals/batches.md, "Lines admitted in groups").

const move = (delta: number): WriteOp => ({
  kind: 'moveBalance',
  orgId: 'org_a',
  livemode: false,
  delta,
  mustStayNonNegative: true,
});
const hit = (counterKey = 'w#1'): WriteOp => ({ kind: 'countRequest', counterKey, limit: 10, expiresAt: 60 });
const lineCounters = (reserved: number): WriteOp => ({
  kind: 'updateBatch',
  batchId: 'bat_1',
  add: { reserved },
  expectLease: { token: 't' },
});

describe('summing writes to shared items', () => {
  it('sums balance moves, window hits and batch counters into one write each, in the place of the first', () => {
    const summed = sumSharedWrites([move(-10), hit(), lineCounters(10), move(-5), hit(), lineCounters(5), hit()]);
    expect(summed).toEqual([{ ...move(-15) }, { ...hit(), hits: 3 }, { ...lineCounters(15), add: { reserved: 15 } }]);
  });

  it('keeps writes to different items apart and leaves items of their own untouched', () => {
    const ledger = (id: string): WriteOp => ({
      kind: 'appendLedger',
      entry: { id, object: 'ledger_entry', org_id: 'org_a', livemode: false, kind: 'reserve', amount: -1 } as never,
    });
    const ops = [hit('w#1'), hit('w#2'), ledger('led_1'), ledger('led_2')];
    expect(sumSharedWrites(ops)).toEqual(ops);
  });

  it("sums a batch's settlements' usage counters per row and keeps one check that no endpoint listens", () => {
    const usage = (date: string, succeeded: number): WriteOp => ({
      kind: 'bumpUsage',
      orgId: 'org_a',
      date,
      endpoint: 'pricing.vehicle',
      livemode: false,
      deltas: { requests: 1, succeeded, credits_charged: 10 * succeeded },
    });
    const noListener: WriteOp = { kind: 'expectNoWebhookEndpoints', orgId: 'org_a' };
    expect(
      sumSharedWrites([usage('2026-12-01', 1), noListener, usage('2026-12-01', 0), usage('2026-12-02', 1), noListener]),
    ).toEqual([
      { ...usage('2026-12-01', 1), deltas: { requests: 2, succeeded: 1, credits_charged: 10 } },
      noListener,
      usage('2026-12-02', 1),
    ]);
  });

  it('refuses to sum writes to one item under different conditions', () => {
    const otherLease: WriteOp = { ...lineCounters(1), expectLease: { token: 'u' } } as WriteOp;
    expect(() => sumSharedWrites([lineCounters(1), otherLease])).toThrow(UnsummableWrites);
    const keySpend = (fields: string[]): WriteOp => ({
      kind: 'countKeySpend',
      counterKey: 'key_1#month',
      fields,
      delta: 10,
      limit: null,
      expiresAt: 99,
    });
    expect(() => sumSharedWrites([keySpend(['day1', 'month']), keySpend(['day2', 'month'])])).toThrow(UnsummableWrites);
  });

  it('fits one transaction while its summed writes number at most 100', () => {
    const version: WriteOp = { kind: 'expectKeysVersion', orgId: 'org_a', livemode: false, version: 0 };
    const claims = (n: number) =>
      Array.from(
        { length: n },
        (_, i): WriteOp => ({ kind: 'claimProviderEvent', provider: 'p', eventId: `e${i}`, orgId: 'org_a', at: 0 }),
      );
    expect(fitsOneTransaction([...claims(MAX_TRANSACTION_WRITES - 3), move(-1), version, move(-1), hit(), hit()])).toBe(
      true,
    );
    expect(fitsOneTransaction([...claims(MAX_TRANSACTION_WRITES - 2), move(-1), version, hit()])).toBe(false);
  });
});

describe('summed writes on the in-memory unit of work', () => {
  it('judges a summed move on the whole: refused when the balance covers some parts but not all', async () => {
    const services = inMemoryServices();
    services.tables.balances.set(balanceKey('org_a', false), { amount: 12, keysVersion: 0 });
    await expect(services.uow.commit(sumSharedWrites([move(-10), move(-5)]))).rejects.toEqual(
      new TransactionRefused(['moveBalance']),
    );
    expect(services.tables.balances.get(balanceKey('org_a', false))!.amount).toBe(12);
    await services.uow.commit(sumSharedWrites([move(-6), move(-6)]));
    expect(services.tables.balances.get(balanceKey('org_a', false))!.amount).toBe(0);
    // unsummed, the two moves are one item written twice, which DynamoDB refuses
    await expect(services.uow.commit([move(0), move(0)])).rejects.toBeInstanceOf(TransactionInvalid);
  });

  it('counts every hit on a window, refusing a group the window has no room for', async () => {
    const services = inMemoryServices();
    services.tables.rateLimitHits.set('w#1', 7);
    await expect(services.uow.commit(sumSharedWrites([hit(), hit(), hit(), hit()]))).rejects.toEqual(
      new TransactionRefused(['countRequest']),
    );
    await services.uow.commit(sumSharedWrites([hit(), hit(), hit()]));
    expect(services.tables.rateLimitHits.get('w#1')).toBe(10);
  });
});
