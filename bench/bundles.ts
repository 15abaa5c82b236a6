import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ROUTES } from '../lambdas/http/routes/index.js';

export interface BundleMeasurement {
  entry: string;
  minifiedBytes: number;
  coldImportMs: number;
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
  const handlers = [...new Set(ROUTES.map((route) => `lambdas/http/handlers/${route.handler}.ts`))];
  return [...handlers, 'lambdas/workers/work-queue-consumer.ts', 'lambdas/workers/sweeper.ts'];
}

/** Bundles each Lambda entry and imports it in a fresh Node process, as a cold start would. */
export async function measureBundles(): Promise<BundleMeasurement[]> {
  // inside the project, so the bundles' external @aws-sdk imports resolve from node_modules as on Lambda
  mkdirSync(join(process.cwd(), 'node_modules', '.cache'), { recursive: true });
  const out = mkdtempSync(join(process.cwd(), 'node_modules', '.cache', 'ais-bundles-'));
  const results: BundleMeasurement[] = [];
  for (const entry of lambdaEntries()) {
    const outfile = join(out, `${entry.replace(/[/.]/g, '_')}.mjs`);
    await build({ ...BUNDLE_OPTIONS, entryPoints: [entry], outfile });
    const script = `const t=performance.now(); await import(${JSON.stringify(outfile)}); console.log((performance.now()-t).toFixed(1));`;
    // @aws-sdk stays external: the Lambda runtime provides it
    const samples = [0, 1, 2].map(() => Number(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: process.cwd() }).toString().trim()));
    results.push({ entry, minifiedBytes: statSync(outfile).size, coldImportMs: samples.sort((a, b) => a - b)[1]! });
  }
  return results;
}
