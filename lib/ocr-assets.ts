import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { buildSync } from 'esbuild';
import { LANGUAGE_DATA, PINNED_CORE, WORKER_SCRIPT } from '../lambdas/planes/ocr/ocr-assets.js';
import { PROJECT_ROOT } from './functions.js';

/** Where the reference plane's OCR files sit in its deployment package (OCR_ASSETS_DIR, relative to the task root). */
export const OCR_ASSETS_FOLDER = 'ocr';

/**
 * Writes the reference plane's OCR engine beside its handler (docs/internals/inference-plane.md, "The
 * reference plane"): tesseract.js starts its worker thread from a file path, so the worker script
 * cannot be inlined into the handler's bundle. It is bundled on its own (CommonJS, with the parts
 * of tesseract.js it needs); the one pinned core build (loader and wasm) and the English data are
 * copied as they are. Nothing else of tesseract.js-core's 44 MB of builds is shipped.
 */
export function writeOcrAssets(outputDir: string): void {
  const target = join(outputDir, OCR_ASSETS_FOLDER);
  const require = createRequire(join(PROJECT_ROOT, 'package.json'));
  mkdirSync(join(target, LANGUAGE_DATA), { recursive: true });
  buildSync({
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    minify: true,
    absWorkingDir: PROJECT_ROOT,
    entryPoints: [join(PROJECT_ROOT, 'lambdas/planes/ocr', WORKER_SCRIPT)],
    outfile: join(target, WORKER_SCRIPT),
    logLevel: 'warning',
  });
  const core = dirname(require.resolve(`tesseract.js-core/${PINNED_CORE}.js`));
  for (const file of [`${PINNED_CORE}.js`, `${PINNED_CORE}.wasm`]) copyFileSync(join(core, file), join(target, file));
  const data = dirname(require.resolve('@tesseract.js-data/eng/package.json'));
  copyFileSync(join(data, LANGUAGE_DATA, 'eng.traineddata.gz'), join(target, LANGUAGE_DATA, 'eng.traineddata.gz'));
  // the core's loader is a CommonJS `.js` file: Node reads a `.js` as the nearest package.json's type says,
  // and a package staged inside this repository (start:assembly) would find ours, `"type": "module"`
  writeFileSync(join(target, 'package.json'), `${JSON.stringify({ type: 'commonjs' })}\n`);
}
