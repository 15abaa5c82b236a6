import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../../lambdas/domain/kernel/errors.js';
import { compareUsageRows, type UsageRow, usageDate, usageWindow } from '../../../../lambdas/domain/money/usage.js';

describe('usage', () => {
  it('counts a job on its UTC creation day and orders rows newest day, then endpoint, then live before test', () => {
    expect(usageDate(Date.UTC(2026, 0, 31, 23, 59, 59) / 1000)).toBe('2026-01-31');
    const row = (date: string, endpoint: string, livemode: boolean) => ({ date, endpoint, livemode }) as UsageRow;
    const rows = [
      row('2026-01-01', 'vin.read', false),
      row('2026-01-02', 'vin.read', false),
      row('2026-01-01', 'plate.read', false),
      row('2026-01-01', 'plate.read', true),
    ];
    expect(rows.sort(compareUsageRows).map((r) => `${r.date} ${r.endpoint} ${r.livemode}`)).toEqual([
      '2026-01-02 vin.read false',
      '2026-01-01 plate.read true',
      '2026-01-01 plate.read false',
      '2026-01-01 vin.read false',
    ]);
  });

  it('defaults to the last 30 days and refuses inverted or over-long windows', () => {
    const now = Date.UTC(2026, 2, 15, 12);
    expect(usageWindow(now)).toEqual({ from: '2026-02-14', to: '2026-03-15' });
    expect(usageWindow(now, undefined, '2026-01-30')).toEqual({ from: '2026-01-01', to: '2026-01-30' });
    expect(usageWindow(now, '2025-01-01', '2026-01-01')).toEqual({ from: '2025-01-01', to: '2026-01-01' });
    expect(() => usageWindow(now, '2025-01-01', '2026-01-02')).toThrow(ApiError);
    expect(() => usageWindow(now, '2026-01-02', '2026-01-01')).toThrow(ApiError);
  });
});
