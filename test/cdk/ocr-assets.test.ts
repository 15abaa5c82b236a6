import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ocrAssets } from '../../lambdas/planes/ocr/ocr-assets.js';
import { TesseractEngine } from '../../lambdas/planes/ocr/tesseract-engine.js';
import { Rng } from '../../lambdas/sandbox/prng.js';
import { OCR_ASSETS_FOLDER, writeOcrAssets } from '../../lib/ocr-assets.js';
import { randomVin, vinLabel } from '../support/rendered-text.js';

// What the reference plane's deployment package carries beside its handler (lib/ocr-assets.ts):
// the engine must run from those files alone, as it does on Lambda, with nothing downloaded, and
// wherever the package is staged: here inside a project whose package.json says `"type": "module"`,
// as `start:assembly` stages it inside this repository.

describe('the reference plane OCR files', () => {
  const projectDir = mkdtempSync(join(tmpdir(), 'ocr-assets-'));
  writeFileSync(join(projectDir, 'package.json'), JSON.stringify({ type: 'module' }));
  const outputDir = join(projectDir, 'asset');
  mkdirSync(outputDir);
  writeOcrAssets(outputDir);
  const folder = join(outputDir, OCR_ASSETS_FOLDER);
  // as Lambda finds them: the folder the function's environment names, under the package's root
  const engine = new TesseractEngine(ocrAssets({ OCR_ASSETS_DIR: OCR_ASSETS_FOLDER, LAMBDA_TASK_ROOT: outputDir }));
  afterAll(async () => {
    await engine.stop();
    rmSync(projectDir, { recursive: true, force: true });
  });

  it('are the worker script, one pinned core build and the English data, nothing else', () => {
    const files = readdirSync(folder, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name).slice(folder.length + 1))
      .sort();
    expect(files).toEqual([
      '4.0.0_best_int/eng.traineddata.gz',
      'package.json',
      'pinned-core-worker.cjs',
      'tesseract-core-simd-lstm.js',
      'tesseract-core-simd-lstm.wasm',
    ]);
    const megabytes = files.reduce((sum, file) => sum + statSync(join(folder, file)).size, 0) / 1e6;
    expect(megabytes).toBeLessThan(20);
  });

  it('read a VIN with the engine started from them alone', async () => {
    const vin = randomVin(Rng.fromParts('ocr-assets'));
    const page = await engine.read((await vinLabel(vin)).png, { layout: 'auto' });
    expect(page.text.replace(/\s/g, '')).toBe(vin);
  });

  it('fail a read when the engine cannot start (a core that loads nothing), instead of waiting forever', async () => {
    const brokenCore = join(projectDir, 'broken-core.cjs');
    writeFileSync(brokenCore, 'module.exports = {};\n');
    const broken = new TesseractEngine({ ...ocrAssets({ OCR_ASSETS_DIR: folder }), corePath: brokenCore });
    await expect(broken.read((await vinLabel('1M8GDM9AXKP042788')).png, { layout: 'auto' })).rejects.toThrow(
      /the OCR engine failed to start/,
    );
  });
});
