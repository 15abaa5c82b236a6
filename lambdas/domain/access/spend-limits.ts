import { SPEND_PERIODS, type SpendCounter, type SpendLimit, type SpendPeriod } from '../ports/access.js';
import type { WriteOp } from '../ports/transactions.js';

// A key's spend: what its jobs were charged plus what they still hold, per UTC day and per UTC
// month, counted in the same transactions that reserve and settle the credits, so a limit holds
// under any concurrency (docs/internals/spend-limits.md).

/** A counter outlives its period by this much: a job admitted late in a period still settles on it. */
const COUNTER_SLACK_SECONDS = 7 * 24 * 3600;

/** The UTC day or month that `atSeconds` falls in: its first second, and the first second of the next. */
export function spendPeriodOf(period: SpendPeriod, atSeconds: number): { start: number; end: number } {
  const at = new Date(atSeconds * 1000);
  if (period === 'day') {
    const start = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()) / 1000;
    return { start, end: start + 24 * 3600 };
  }
  return {
    start: Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1) / 1000,
    end: Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1) / 1000,
  };
}

/**
 * Where a key's spend in one period is counted: one item per key and UTC month, holding the month's
 * total and one field per day, so an admission moves both periods with one item of its transaction.
 */
export function spendCounterOf(keyId: string, period: SpendPeriod, atSeconds: number): SpendCounter {
  const month = spendPeriodOf('month', atSeconds).start;
  return {
    counterKey: `${keyId}#${month}`,
    field: period === 'month' ? 'month' : `day${new Date(atSeconds * 1000).getUTCDate()}`,
  };
}

/**
 * The write that moves a key's spend by `delta` credits in the day and the month of `atSeconds` (a
 * job's `created`: its reservation and its release count on the same counters). An increase is
 * refused (`countKeySpend`) when it would take the limit's period past the limit.
 */
export function keySpendOps(
  keyId: string,
  atSeconds: number,
  delta: number,
  limit: SpendLimit | null = null,
): WriteOp[] {
  const [day, month] = SPEND_PERIODS.map((period) => spendCounterOf(keyId, period, atSeconds)) as [
    SpendCounter,
    SpendCounter,
  ];
  const checked =
    limit && delta > 0 ? { field: limit.period === 'day' ? day.field : month.field, credits: limit.credits } : null;
  return [
    {
      kind: 'countKeySpend',
      counterKey: month.counterKey,
      fields: [day.field, month.field],
      delta,
      limit: checked,
      expiresAt: spendPeriodOf('month', atSeconds).end + COUNTER_SLACK_SECONDS,
    },
  ];
}
