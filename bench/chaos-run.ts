import { formatChaosReport, runChaos } from './chaos.js';

/** `npm run chaos` (CHAOS_SECONDS=120 by default): prints what held and exits non-zero if anything did not. */
const seconds = Number(process.env.CHAOS_SECONDS ?? 120);
const report = await runChaos({
  durationMs: seconds * 1000,
  killEveryMs: 8000,
  settleTimeoutMs: 180_000,
  log: (line) => console.log(line),
});
console.log(formatChaosReport(report));
process.exit(report.checks.every((check) => check.ok) ? 0 : 1);
