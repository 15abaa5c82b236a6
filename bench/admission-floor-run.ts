import '../local/quiet-warnings.js';
import { formatFloorReport, measureAdmissionFloor } from './admission-floor.js';
import { LocalProcess } from './local-process.js';

/**
 * `npm run bench:admission`: only the admission-beside-its-floor figure of `npm run bench` (worker
 * on, the measure), then the same with the worker paused: the admission alone, without the
 * previous job's settlement competing for the same cores (docs/internals/benchmarks.md says why both).
 */
const calls = Number(process.env.BENCH_CALLS ?? 300);
for (const [label, env] of [
  ['worker on (the goal)', {}],
  ['worker paused (WORKER_PAUSED=1: the admission alone)', { WORKER_PAUSED: '1' }],
] as const) {
  const local = await new LocalProcess(env).start();
  try {
    console.log(`## ${label}\n${formatFloorReport(await measureAdmissionFloor(local, calls))}`);
  } finally {
    await local.stop();
  }
}
