import '../local/quiet-warnings.js';
import { formatSpendLimitReport, measureSpendLimitAdmission } from './admission.js';
import { startBenchRuntime } from './bench-runtime.js';

/**
 * `npm run bench:spend-limit`: admission p50 for a key with a spend limit beside one without, on the
 * local runtime (DynamoDB Local), with the AWS calls and transaction items of each (docs/internals/benchmarks.md).
 */
const calls = Number(process.env.BENCH_CALLS ?? 600);
const { runtime, stop } = await startBenchRuntime();
try {
  console.log(
    `## Admission with and without a spend limit (${calls} test-mode plate.read calls each, concurrency 8, alternating rounds, worker paused)`,
  );
  console.log(formatSpendLimitReport(await measureSpendLimitAdmission(runtime, calls, 8)));
} finally {
  await stop();
}
