import '../lambdas/local/quiet-warnings.js';
import { formatFloorReport, measureAdmissionFloor } from './admission-floor.js';
import { LocalProcess } from './local-process.js';

/** `npm run bench:admission`: only the admission-beside-its-floor figure of `npm run bench`. */
const local = await new LocalProcess().start();
try {
  console.log(formatFloorReport(await measureAdmissionFloor(local, Number(process.env.BENCH_CALLS ?? 300))));
} finally {
  await local.stop();
}
