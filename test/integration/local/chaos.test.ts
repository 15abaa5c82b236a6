import { describe, expect, it } from 'vitest';
import { formatChaosReport, runChaos } from '../../../bench/chaos.js';

/** The short form of `npm run chaos`: the same traffic, kills and checks, bounded for CI. */
describe('chaos: kills of the whole runtime under mixed traffic', () => {
  it('loses no job, no credit and no event, and settles every inspection stage and every batch line', {
    timeout: 300_000,
  }, async () => {
    const report = await runChaos({ durationMs: 12_000, killEveryMs: 5000, settleTimeoutMs: 150_000 });
    const failed = report.checks.filter((check) => !check.ok);
    expect(report.kills, formatChaosReport(report)).toBeGreaterThanOrEqual(1);
    expect(report.jobs).toBeGreaterThan(0);
    expect(report.batches).toBeGreaterThan(0);
    expect(failed, formatChaosReport(report)).toEqual([]);
  });
});
