import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildSync } from 'esbuild';
import { imageSize } from '../lambdas/domain/jobs/image-size.js';
import { readDocument } from '../lambdas/planes/ocr/document-reading.js';
import { OCR_ASSETS_VARIABLE } from '../lambdas/planes/ocr/ocr-assets.js';
import { readPlates } from '../lambdas/planes/ocr/plate-reading.js';
import { TesseractEngine } from '../lambdas/planes/ocr/tesseract-engine.js';
import { readVin } from '../lambdas/planes/ocr/vin-reading.js';
import { Rng } from '../lambdas/sandbox/prng.js';
import { DocumentReadParams } from '../lambdas/schemas/params/document-read.js';
import { PlateReadParams } from '../lambdas/schemas/params/plate-read.js';
import { VinReadParams } from '../lambdas/schemas/params/vin-read.js';
import { LAMBDA_BUNDLE, LAMBDA_RUNTIME, PROJECT_ROOT } from '../lib/functions.js';
import { OCR_ASSETS_FOLDER, writeOcrAssets } from '../lib/ocr-assets.js';
import { OCR_PLANE_MEMORY_MB, REFERENCE_PLANE_TIMEOUT } from '../lib/reference-plane.js';
import { LambdaHost } from '../local/assembly/lambda-host.js';
import {
  documentPage,
  plateScene,
  randomDocumentLines,
  randomPlate,
  randomVin,
  vinLabel,
} from '../test/support/rendered-text.js';
import { percentile } from './stats.js';

/**
 * `npm run bench:ocr`: the reference plane's OCR (docs/internals/inference-plane.md, "The reference plane")
 * on images drawn with seeded random text, as the integration test draws them: the engine's start
 * (the part of a cold start OCR adds), then each endpoint's read time per image (p50, p95) on one
 * warm engine, how many were read back exactly, the size of the Lambda's deployment package
 * (the handler's bundle plus the OCR files beside it), and the handler's init in a fresh instance
 * of the local Lambda host: with the engine start, the cold start of a first OCR request.
 */
const IMAGES = Number(process.env.BENCH_OCR_IMAGES ?? 12);

const rng = Rng.fromParts('bench-ocr');
const engine = new TesseractEngine();
/** The bench reads plates without asking for crops (`return_crops` false), so none is ever saved. */
const noCrops = () => Promise.reject(new Error('the bench asks for no plate crops'));
const ms = (start: number) => performance.now() - start;

const started = performance.now();
await engine.read((await vinLabel(randomVin(rng.fork('warm-up')))).png, { layout: 'auto' });
const engineStartMs = ms(started);

interface Case {
  png: Buffer;
  read: (png: Buffer) => Promise<string>;
  expected: string;
}

const cases: Record<string, (index: number) => Promise<Case>> = {
  'vin.read': async (index) => {
    const vin = randomVin(rng.fork(`vin-${index}`));
    return {
      png: (await vinLabel(vin)).png,
      expected: vin,
      read: async (png) => (await readVin(engine, png, imageSize(png)!, VinReadParams.parse({}))).vin?.text ?? '',
    };
  },
  'plate.read': async (index) => {
    const plate = randomPlate(rng.fork(`plate-${index}`));
    return {
      png: (await plateScene(plate, rng.fork(`scene-${index}`))).png,
      expected: plate,
      read: async (png) =>
        (await readPlates(engine, png, imageSize(png)!, PlateReadParams.parse({}), noCrops)).plates[0]?.text ?? '',
    };
  },
  'document.read': async (index) => {
    const lines = randomDocumentLines(rng.fork(`document-${index}`));
    return {
      png: (await documentPage(lines)).png,
      expected: lines.join('\n'),
      read: async (png) =>
        (await readDocument(engine, png, imageSize(png)!, DocumentReadParams.parse({}))).fields
          .map((field) => field.value)
          .join('\n'),
    };
  },
};

/** How many fresh instances the handler's init is measured on. */
const COLD_STARTS = 3;

/**
 * The handler's init as Lambda's Node runtime does it, in the local Lambda host (a fresh worker thread
 * with the function's memory and environment, importing the bundle by file URL): the time from the
 * invocation to the answer of a request the handler refuses before any I/O (a GET on its URL).
 */
async function handlerInitTimes(codeDirectory: string): Promise<number[]> {
  const times: number[] = [];
  for (let run = 0; run < COLD_STARTS; run++) {
    const host = new LambdaHost(
      [
        {
          name: 'reference-plane',
          arn: 'arn:aws:lambda:us-east-1:000000000000:function:reference-plane',
          codeDirectory,
          handler: 'index.handler',
          runtime: LAMBDA_RUNTIME.name,
          timeoutSeconds: REFERENCE_PLANE_TIMEOUT.toSeconds(),
          memoryMb: OCR_PLANE_MEMORY_MB,
          environment: { [OCR_ASSETS_VARIABLE]: OCR_ASSETS_FOLDER, NODE_OPTIONS: '--enable-source-maps' },
        },
      ],
      { baseEnvironment: { PATH: process.env.PATH ?? '/usr/bin:/bin', AWS_REGION: 'us-east-1' } },
    );
    try {
      const start = performance.now();
      const outcome = await host.invoke('reference-plane', {
        requestContext: { http: { method: 'GET' } },
        rawPath: '/',
        headers: {},
      });
      times.push(ms(start));
      if (!outcome.ok || (outcome.payload as { statusCode?: number }).statusCode !== 405)
        throw new Error(`the plane's handler did not refuse the GET: ${JSON.stringify(outcome)}`);
    } finally {
      await host.stop();
    }
  }
  return times.sort((a, b) => a - b);
}

const rows: string[] = [];
const misses: string[] = [];
for (const [slug, make] of Object.entries(cases)) {
  const times: number[] = [];
  let exact = 0;
  for (let index = 0; index < IMAGES; index++) {
    const { png, read, expected } = await make(index);
    const start = performance.now();
    const text = await read(png);
    times.push(ms(start));
    if (text === expected) exact++;
    else misses.push(`${slug}: wrote ${JSON.stringify(expected)}, read ${JSON.stringify(text)}`);
  }
  times.sort((a, b) => a - b);
  rows.push(
    `| \`${slug}\` | ${IMAGES} | ${percentile(times, 50).toFixed(0)} ms | ${percentile(times, 95).toFixed(0)} ms | ${exact}/${IMAGES} |`,
  );
}
await engine.stop();

// staged inside the project, as start:assembly stages packages: the AWS SDK the bundle leaves to Lambda's
// runtime is found in the project's node_modules, as Lambda's Node runtime provides its own
const outputDir = mkdtempSync(join(PROJECT_ROOT, 'node_modules', '.bench-ocr-'));
try {
  buildSync({
    ...LAMBDA_BUNDLE,
    absWorkingDir: PROJECT_ROOT,
    entryPoints: ['lambdas/workers/reference-plane.ts'],
    outfile: join(outputDir, 'index.mjs'),
  });
  writeOcrAssets(outputDir);
  const sizeOf = (path: string): number =>
    statSync(path).isDirectory()
      ? readdirSync(path).reduce((sum, name) => sum + sizeOf(join(path, name)), 0)
      : statSync(path).size;
  const megabytes = (bytes: number) => `${(bytes / 1e6).toFixed(2)} MB`;
  const initMs = await handlerInitTimes(outputDir);
  console.log(`engine start (first read included): ${engineStartMs.toFixed(0)} ms`);
  console.log(
    `handler init (the package's bundle imported in a fresh instance, then a request it refuses), ${COLD_STARTS} cold starts: ${initMs.map((value) => value.toFixed(0)).join(', ')} ms`,
  );
  console.log(
    `cold start of a first OCR request: about ${(percentile(initMs, 50) + engineStartMs).toFixed(0)} ms (median init + engine start), before Lambda's own start of the runtime`,
  );
  console.log('| endpoint | images | p50 | p95 | read back exactly |');
  console.log('| --- | --- | --- | --- | --- |');
  for (const row of rows) console.log(row);
  for (const miss of misses) console.log(miss);
  console.log(
    `package: handler bundle ${megabytes(sizeOf(join(outputDir, 'index.mjs')))} + OCR files ${megabytes(sizeOf(join(outputDir, OCR_ASSETS_FOLDER)))} + source map ${megabytes(sizeOf(join(outputDir, 'index.mjs.map')))}`,
  );
} finally {
  rmSync(outputDir, { recursive: true, force: true });
}
