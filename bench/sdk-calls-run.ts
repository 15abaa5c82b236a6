import '../local/quiet-warnings.js';
import { formatSdkCallReport, measureSdkCalls } from './sdk-calls.js';

/** `npm run bench:sdk`: only the SDK-CPU-per-call measurement of `npm run bench`. */
console.log(formatSdkCallReport(await measureSdkCalls()));
