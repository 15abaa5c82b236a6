import { describe, expect, it } from 'vitest';
import { keySpendOps, spendCounterOf, spendPeriodOf } from '../../../../lambdas/domain/access/spend-limits.js';

// The periods a key's spend is counted in, and the one transaction item that counts it (docs/internals/spend-limits.md).

const at = (iso: string) => Date.parse(iso) / 1000;

describe('spend periods', () => {
  it('a day runs from 00:00 UTC to the next midnight; a month from the 1st to the next 1st, across the year', () => {
    expect(spendPeriodOf('day', at('2026-11-27T23:59:59Z'))).toEqual({
      start: at('2026-11-27T00:00:00Z'),
      end: at('2026-11-28T00:00:00Z'),
    });
    expect(spendPeriodOf('day', at('2026-11-28T00:00:00Z')).start).toBe(at('2026-11-28T00:00:00Z'));
    expect(spendPeriodOf('month', at('2026-12-31T23:59:59Z'))).toEqual({
      start: at('2026-12-01T00:00:00Z'),
      end: at('2027-01-01T00:00:00Z'),
    });
    expect(spendPeriodOf('month', at('2028-02-29T12:00:00Z')).end).toBe(at('2028-03-01T00:00:00Z'));
  });

  it("counts a day and its month on the month's one item, a field per day", () => {
    expect(spendCounterOf('key_a', 'day', at('2026-11-27T10:00:00Z'))).toEqual({
      counterKey: `key_a#${at('2026-11-01T00:00:00Z')}`,
      field: 'day27',
    });
    expect(spendCounterOf('key_a', 'month', at('2026-11-27T10:00:00Z'))).toEqual({
      counterKey: `key_a#${at('2026-11-01T00:00:00Z')}`,
      field: 'month',
    });
    expect(spendCounterOf('key_a', 'day', at('2026-12-27T10:00:00Z')).counterKey).not.toBe(
      spendCounterOf('key_a', 'day', at('2026-11-27T10:00:00Z')).counterKey,
    );
  });
});

describe('keySpendOps', () => {
  it('moves the day and the month in one write, checked against the limit only when the spend grows', () => {
    const now = at('2026-11-27T10:00:00Z');
    const [reserve] = keySpendOps('key_a', now, 30, { credits: 100, period: 'day' });
    expect(reserve).toMatchObject({
      kind: 'countKeySpend',
      fields: ['day27', 'month'],
      delta: 30,
      limit: { field: 'day27', credits: 100 },
    });
    expect(keySpendOps('key_a', now, 30, { credits: 100, period: 'month' })[0]).toMatchObject({
      limit: { field: 'month', credits: 100 },
    });
    expect(keySpendOps('key_a', now, -30, { credits: 100, period: 'day' })[0]).toMatchObject({
      delta: -30,
      limit: null,
    });
    expect(keySpendOps('key_a', now, 30)[0]).toMatchObject({ limit: null });
  });
});
