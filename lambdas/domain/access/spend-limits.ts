import { SPEND_PERIODS, type SpendLimit, type SpendPeriod } from '../ports/access.js';
import type { WriteOp } from '../ports/transactions.js';

// A key's spend: what its jobs were charged plus what they still hold, per UTC day and per UTC
// month, counted in the same transactions that reserve and settle the credits, so a limit holds
// under any concurrency (docs/spend-limits.md).

/** A counter outlives its period by this much: a job admitted late in a period still settles on it. */
const COUNTER_SLACK_SECONDS = 7 * 24 * 3600;

/** The UTC day or month that `atSeconds` falls in: its first second, and the first second of the next. */
export function spendPeriodOf(period: SpendPeriod, atSeconds: number): { start: number; end: number } {
  const at = new Date(atSeconds * 1000);
  if (period === 'day') {
    const start = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()) / 1000;
    return { start, end: start + 24 * 3600 };
  }
  return { start: Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1) / 1000, end: Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1) / 1000 };
}

/** The counter of one key's spend in one period. */
export function spendCounterKey(keyId: string, period: SpendPeriod, start: number): string {
  return `${keyId}#${period}#${start}`;
}

/**
 * The writes that move a key's spend by `delta` credits in the periods of `atSeconds` (a job's
 * `created`: its reservation and its release count on the same counters). An increase is refused
 * (`countKeySpend`) when it would take the counter of the limit's period past the limit.
 */
export function keySpendOps(keyId: string, atSeconds: number, delta: number, limit: SpendLimit | null = null): WriteOp[] {
  return SPEND_PERIODS.map((period) => {
    const { start, end } = spendPeriodOf(period, atSeconds);
    const ceiling = limit && limit.period === period && delta > 0 ? limit.credits : null;
    return { kind: 'countKeySpend', counterKey: spendCounterKey(keyId, period, start), delta, limit: ceiling, expiresAt: end + COUNTER_SLACK_SECONDS };
  });
}
