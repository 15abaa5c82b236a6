import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The one wasm build every reference plane runs: SIMD with the LSTM engine only, which Node 20+ runs on x64 and arm64 alike. */
export const PINNED_CORE = 'tesseract-core-simd-lstm';
/** The language data the plane reads with: the integer-quantised "best" English model. */
export const LANGUAGE_DATA = '4.0.0_best_int';
export const WORKER_SCRIPT = 'pinned-core-worker.cjs';
/**
 * Set on the Lambda: the folder of its deployment package the assets were copied to beside the handler
 * (lib/reference-plane.ts), relative to the package's root, which Lambda names in `LAMBDA_TASK_ROOT`
 * (`/var/task` on AWS; wherever the bundle was staged under `start:assembly`).
 */
export const OCR_ASSETS_VARIABLE = 'OCR_ASSETS_DIR';

export interface OcrAssets {
  /** tesseract.js's worker thread, which loads `corePath` */
  workerPath: string;
  /** the pinned core build's loader (its `.wasm` sits beside it) */
  corePath: string;
  /** the directory holding `eng.traineddata.gz` */
  langPath: string;
}

/** Where the worker script, core and language data are: beside the handler on Lambda, in node_modules locally. */
export function ocrAssets(environment: NodeJS.ProcessEnv = process.env): OcrAssets {
  const folder = environment[OCR_ASSETS_VARIABLE];
  if (folder) {
    const shipped = path.resolve(environment.LAMBDA_TASK_ROOT ?? process.cwd(), folder);
    return {
      workerPath: path.join(shipped, WORKER_SCRIPT),
      corePath: path.join(shipped, `${PINNED_CORE}.js`),
      langPath: path.join(shipped, LANGUAGE_DATA),
    };
  }
  const require = createRequire(import.meta.url);
  return {
    workerPath: path.join(path.dirname(fileURLToPath(import.meta.url)), WORKER_SCRIPT),
    corePath: require.resolve(`tesseract.js-core/${PINNED_CORE}.js`),
    langPath: path.join(path.dirname(require.resolve('@tesseract.js-data/eng/package.json')), LANGUAGE_DATA),
  };
}
