import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { ROUTES } from '../lambdas/http/routes/index.js';
import { routeEntry } from '../lib/route-functions.js';

/** Issue 13, item 2: every bundle at most 300 KB minified, its cold import at most 1.3 × a bare DynamoDB SDK import. */
export const BUNDLE_LIMITS = { maxKb: 300, maxRatio: 1.3 } as const;

/** The floor: what every Lambda pays at least, since each one talks to DynamoDB. */
export const FLOOR_SPECIFIER = '@aws-sdk/client-dynamodb';

export interface BundleMeasurement {
  entry: string;
  minifiedBytes: number;
  /** median over the samples, each a fresh Node process */
  coldImportMs: number;
  /** the floor's median over the samples taken alternately with this bundle's */
  floorMs: number;
  /** coldImportMs / floorMs */
  ratio: number;
  /** the floor loaded with `require`, as the bundles load the SDK (lambdas/adapters/aws-sdk.ts), sampled beside it */
  requireFloorMs: number;
  /** coldImportMs / requireFloorMs: the stricter comparison, reported beside the issue's */
  requireRatio: number;
  withinSize: boolean;
  withinRatio: boolean;
}

export interface BundleReport {
  floor: { specifier: string; coldImportMs: number; requireMs: number; samples: number };
  samplesPerBundle: number;
  bundles: BundleMeasurement[];
}

/** The same esbuild options the CDK stack bundles Lambdas with. */
const BUNDLE_OPTIONS = {
  bundle: true,
  minify: true,
  platform: 'node' as const,
  format: 'esm' as const,
  target: 'node22',
  external: ['@aws-sdk/*'],
  mainFields: ['module', 'main'],
  banner: { js: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);" },
  logLevel: 'silent' as const,
};

export function lambdaEntries(): string[] {
  const handlers = [...new Set(ROUTES.map(routeEntry))];
  return [...handlers, 'lambdas/workers/work-queue-consumer.ts', 'lambdas/workers/sweeper.ts'];
}

/**
 * Milliseconds one `import(specifier)` (with `byRequire`, one `require(specifier)`) takes in a
 * fresh Node process, as a cold start would pay it (process start excluded).
 */
function coldImportOnce(specifier: string, byRequire = false): number {
  const name = JSON.stringify(specifier);
  const script = byRequire
    ? `const load=(await import('node:module')).createRequire(process.cwd() + '/'); const t=performance.now(); load(${name}); console.log((performance.now()-t).toFixed(2));`
    : `const t=performance.now(); await import(${name}); console.log((performance.now()-t).toFixed(2));`;
  // from the project root, so bare @aws-sdk imports resolve from node_modules as they do from the Lambda runtime's
  return Number(
    execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: process.cwd() }).toString().trim(),
  );
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * Bundles each Lambda entry and imports it in fresh Node processes (median of `samples`), and
 * measures the floor, a bare `import('@aws-sdk/client-dynamodb')`, the same way in the same run.
 * Floor and bundle samples alternate, and each bundle's ratio is to the floor measured beside
 * it: on a machine whose load changes during the run, both sides of a ratio see the same load.
 */
export async function measureBundles(
  options: { samples?: number; entries?: readonly string[] } = {},
): Promise<BundleReport> {
  const samples = Math.max(1, options.samples ?? 5);
  const entries = options.entries ?? lambdaEntries();
  // inside the project, so the bundles' external @aws-sdk imports resolve from node_modules as on Lambda
  mkdirSync(join(process.cwd(), 'node_modules', '.cache'), { recursive: true });
  const out = mkdtempSync(join(process.cwd(), 'node_modules', '.cache', 'ais-bundles-'));
  const allFloorSamples: number[] = [];
  const allRequireFloorSamples: number[] = [];
  const bundles: BundleMeasurement[] = [];
  try {
    for (const entry of entries) {
      const outfile = join(out, `${entry.replace(/[/.]/g, '_')}.mjs`);
      await build({ ...BUNDLE_OPTIONS, entryPoints: [entry], outfile });
      const floorSamples: number[] = [];
      const requireFloorSamples: number[] = [];
      const bundleSamples: number[] = [];
      for (let i = 0; i < samples; i++) {
        floorSamples.push(coldImportOnce(FLOOR_SPECIFIER));
        bundleSamples.push(coldImportOnce(outfile));
        requireFloorSamples.push(coldImportOnce(FLOOR_SPECIFIER, true));
      }
      allFloorSamples.push(...floorSamples);
      allRequireFloorSamples.push(...requireFloorSamples);
      const minifiedBytes = statSync(outfile).size;
      const coldImportMs = median(bundleSamples);
      const floorMs = median(floorSamples);
      const ratio = coldImportMs / floorMs;
      const requireFloorMs = median(requireFloorSamples);
      bundles.push({
        entry,
        minifiedBytes,
        coldImportMs,
        floorMs,
        ratio,
        requireFloorMs,
        requireRatio: coldImportMs / requireFloorMs,
        withinSize: minifiedBytes <= BUNDLE_LIMITS.maxKb * 1024,
        withinRatio: ratio <= BUNDLE_LIMITS.maxRatio,
      });
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
  return {
    floor: {
      specifier: FLOOR_SPECIFIER,
      coldImportMs: median(allFloorSamples),
      requireMs: median(allRequireFloorSamples),
      samples: allFloorSamples.length,
    },
    samplesPerBundle: samples,
    bundles,
  };
}

/** One line per bundle (size, cold import, the floor beside it, ratio, verdict, the comparison to the floor by require), the floor lines, and the worst size and ratios. */
export function formatBundleReport(report: BundleReport): string {
  const kb = (bytes: number) => (bytes / 1024).toFixed(1);
  const width = Math.max(48, ...report.bundles.map((bundle) => bundle.entry.length + 2));
  const lines = report.bundles.map((bundle) => {
    const verdict =
      bundle.withinSize && bundle.withinRatio
        ? 'ok'
        : [bundle.withinSize ? '' : 'SIZE', bundle.withinRatio ? '' : 'RATIO'].filter(Boolean).join('+');
    return `${bundle.entry.padEnd(width)} ${kb(bundle.minifiedBytes).padStart(7)} KB  ${bundle.coldImportMs.toFixed(1).padStart(6)} ms  (floor ${bundle.floorMs.toFixed(1).padStart(6)} ms)  ${bundle.ratio.toFixed(2).padStart(5)} ×  ${verdict.padEnd(10)}  [by require ${bundle.requireFloorMs.toFixed(1).padStart(6)} ms, ${bundle.requireRatio.toFixed(2)} ×]`;
  });
  const { floor } = report;
  lines.push(
    `${`floor: import('${floor.specifier}')`.padEnd(width)} ${''.padStart(10)}  ${floor.coldImportMs.toFixed(1).padStart(6)} ms  (median of all ${floor.samples} floor samples; each ratio is to the floor beside its bundle)`,
    `${`floor by require('${floor.specifier}')`.padEnd(width)} ${''.padStart(10)}  ${floor.requireMs.toFixed(1).padStart(6)} ms  (the bundles load the SDK this way, lambdas/adapters/aws-sdk.ts; shown in brackets for comparison)`,
  );
  if (report.bundles.length > 0) {
    const largest = report.bundles.reduce((a, b) => (b.minifiedBytes > a.minifiedBytes ? b : a));
    const slowest = report.bundles.reduce((a, b) => (b.ratio > a.ratio ? b : a));
    const slowestByRequire = report.bundles.reduce((a, b) => (b.requireRatio > a.requireRatio ? b : a));
    const failing = report.bundles.filter((bundle) => !bundle.withinSize || !bundle.withinRatio).length;
    lines.push(
      `max size ${kb(largest.minifiedBytes)} KB (${largest.entry}, limit ${BUNDLE_LIMITS.maxKb} KB) · max ratio ${slowest.ratio.toFixed(2)} × (${slowest.entry}, limit ${BUNDLE_LIMITS.maxRatio} ×) · ` +
        `${report.bundles.length - failing}/${report.bundles.length} within both limits · ${report.samplesPerBundle} samples per bundle · ` +
        `max ratio to the floor by require ${slowestByRequire.requireRatio.toFixed(2)} × (${slowestByRequire.entry})`,
    );
  }
  return lines.join('\n');
}
