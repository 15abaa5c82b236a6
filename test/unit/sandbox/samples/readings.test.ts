import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import type { InferenceSlug } from '../../../../lambdas/domain/catalogue/catalogue.js';
import { sampleSandboxRequest, sandboxModels } from '../../../../lambdas/sandbox/index.js';
import { hexToRgb } from '../../../../lambdas/sandbox/png.js';
import { drawnCarLook } from '../../../../lambdas/sandbox/samples/readings.js';
import { CAR, DAMAGED, SAMPLE_VEHICLE, TIRE } from '../../../../lambdas/sandbox/samples/scenes.js';
import type { SandboxAsset } from '../../../../lambdas/sandbox/types.js';

const SAMPLES_DIR = join(import.meta.dirname, '../../../../samples');

function sampleAsset(file: string, index: number): SandboxAsset {
  const bytes = readFileSync(join(SAMPLES_DIR, file));
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  return { index, filename: file, contentType: 'image/jpeg', sizeBytes: bytes.length, sha256 };
}

/** Share of a PNG's pixels within a small distance of the sample car's paint. */
function paintShare(bytes: Uint8Array): number {
  const png = PNG.sync.read(Buffer.from(bytes));
  const [r, g, b] = hexToRgb(SAMPLE_VEHICLE.color.hex);
  let painted = 0;
  for (let i = 0; i < png.data.length; i += 4)
    if (Math.hypot(png.data[i]! - r, png.data[i + 1]! - g, png.data[i + 2]! - b) < 60) painted++;
  return painted / (png.width * png.height);
}

describe('drawnCarLook: how a render redraws a sample photo', () => {
  it('keeps the car’s paint, seen end-on from the front and side-on from the side; nothing for a tyre', () => {
    expect(drawnCarLook(CAR)).toMatchObject({ body: hexToRgb(SAMPLE_VEHICLE.color.hex), endOn: 1 });
    expect(drawnCarLook(DAMAGED)).toMatchObject({ endOn: 0 });
    expect(drawnCarLook(TIRE)).toBeNull();
  });

  it.each(['render.background', 'render.360', 'render.video'] satisfies InferenceSlug[])(
    '%s on the car samples paints the car in the sample’s red',
    (slug) => {
      const request = sampleSandboxRequest(slug);
      const files = [CAR.file, DAMAGED.file];
      const assets = Array.from({ length: request.assets.length || 2 }, (_, i) =>
        sampleAsset(files[i % 2] as string, i),
      );
      const output = sandboxModels[slug]({ ...request, assets });
      const pngs = Object.values(output.files).filter((file) => file.contentType === 'image/png');
      expect(pngs.length).toBeGreaterThan(0);
      for (const file of pngs) expect(paintShare(file.bytes)).toBeGreaterThan(0.02);
    },
  );
});
