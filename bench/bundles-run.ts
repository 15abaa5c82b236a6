import { formatBundleReport, lambdaEntries, measureBundles } from './bundles.js';

/**
 * `npx tsx bench/bundles-run.ts [substring…]`: only the Lambda bundle measurement of `npm run bench`.
 * Arguments keep the entries whose path contains one of them; BENCH_BUNDLE_SAMPLES sets the samples per bundle.
 */
const filters = process.argv.slice(2);
const entries =
  filters.length === 0
    ? lambdaEntries()
    : lambdaEntries().filter((entry) => filters.some((filter) => entry.includes(filter)));
const samples = Number(process.env.BENCH_BUNDLE_SAMPLES ?? 5);
console.log(formatBundleReport(await measureBundles({ entries, samples })));
