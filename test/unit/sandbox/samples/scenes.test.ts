import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recognisedSample, SAMPLE_SHA256 } from '../../../../lambdas/sandbox/samples/fingerprints.js';
import { ENGINE, SAMPLE_VEHICLE, SAMPLES } from '../../../../lambdas/sandbox/samples/scenes.js';
import { hasValidCheckDigit } from '../../../../lambdas/sandbox/vin.js';
import { engineRecording } from '../../../../samples/engine-sound.js';

const SAMPLES_DIR = join(import.meta.dirname, '../../../../samples');
const SAMPLE_EXTENSIONS = /\.(jpg|png|wav|mp4)$/;

function sha256Of(file: string): string {
  return createHash('sha256')
    .update(readFileSync(join(SAMPLES_DIR, file)))
    .digest('hex');
}

describe('sample scenes, committed files and their fingerprints', () => {
  it('every committed sample file has a scene and a fingerprint, and nothing else does', () => {
    const committed = readdirSync(SAMPLES_DIR)
      .filter((file) => SAMPLE_EXTENSIONS.test(file))
      .sort();
    expect(SAMPLES.map((sample) => sample.file).sort()).toEqual(committed);
    expect(Object.keys(SAMPLE_SHA256).sort()).toEqual(committed);
  });

  it.each(SAMPLES.map((sample) => [sample.file, sample] as const))(
    '%s: the committed bytes are the fingerprinted ones, recognised as its scene',
    (file, sample) => {
      const hash = sha256Of(file);
      expect(hash, `regenerated ${file}? update lambdas/sandbox/samples/fingerprints.ts`).toBe(SAMPLE_SHA256[file]);
      expect(recognisedSample({ sha256: hash })).toBe(sample);
    },
  );

  it('the engine recording is exactly what its scene synthesises', () => {
    expect(Buffer.from(engineRecording(ENGINE)).equals(readFileSync(join(SAMPLES_DIR, ENGINE.file)))).toBe(true);
  });

  it('the committed images have the sizes their scenes draw at', () => {
    for (const sample of SAMPLES) {
      if (sample.contentType !== 'image/jpeg') continue;
      const bytes = readFileSync(join(SAMPLES_DIR, sample.file));
      expect(jpegSize(bytes), sample.file).toEqual({ width: sample.width, height: sample.height });
    }
  });

  it("the car's VIN carries a valid check digit, so vin.read's checksum is true", () => {
    expect(hasValidCheckDigit(SAMPLE_VEHICLE.vin)).toBe(true);
  });

  it('any other bytes are no sample', () => {
    expect(recognisedSample({ sha256: createHash('sha256').update('not a sample').digest('hex') })).toBeNull();
  });
});

/** Width and height from a baseline or progressive JPEG's start-of-frame segment. */
function jpegSize(bytes: Buffer): { width: number; height: number } {
  let offset = 2;
  while (offset < bytes.length) {
    const marker = bytes[offset + 1] ?? 0;
    const length = bytes.readUInt16BE(offset + 2);
    if (marker === 0xc0 || marker === 0xc2)
      return { height: bytes.readUInt16BE(offset + 5), width: bytes.readUInt16BE(offset + 7) };
    offset += 2 + length;
  }
  throw new Error('no start-of-frame segment');
}
