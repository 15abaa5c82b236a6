import type { SandboxAsset } from '../types.js';
import { SAMPLES, type Sample } from './scenes.js';

/**
 * The committed sample files by the SHA-256 of their bytes, as Stripe knows its test card numbers:
 * test mode recognises a sample by content, whatever it is called or however it was sent.
 * Regenerating a sample (`npm run samples:make`) gives new bytes: update its hash here in the same
 * change (test/unit/sandbox/samples/scenes.test.ts keeps files, hashes and scenes in agreement).
 */
export const SAMPLE_SHA256: Readonly<Record<string, string>> = {
  'car.jpg': '3b2e262a3856f38838ef3da67c0db6e544c0bf47ad2275f687841097309d1f5e',
  'damaged.jpg': '31b16ed5bec84aa56135036d26a8846fb5c28f58b8fe42a7b647b0810d9efacd',
  'tire.jpg': '5dc01c5762115a9dfa9ef35bd0d51195a0fa6bdfb2643d45ca1f76716267a734',
  'vin.jpg': 'c6f0df0ed124f0a54ac7f00866d69182e503de1b875005bfbceeae232801c30c',
  'registration.jpg': 'd1d04d893f36191831c2ccf7476ac03df2671dc5c7fa193e04b503a4c57598e2',
  'engine.wav': '1baa4ae305f4016de892d66f882c7c6ce2e1d5b13f3234a842384cefbb5092c1',
  'walkaround.mp4': '51cfc8e8aafa9181a6d1d83c4a4d09aec155177eaa74243a74b19c5513e255fd',
};

const BY_HASH: ReadonlyMap<string, Sample> = new Map(
  SAMPLES.flatMap((sample) => {
    const hash = SAMPLE_SHA256[sample.file];
    return hash ? [[hash, sample] as const] : [];
  }),
);

/** The sample scene `asset` is, recognised by its bytes' SHA-256; null for any other input. */
export function recognisedSample(asset: Pick<SandboxAsset, 'sha256'>): Sample | null {
  return BY_HASH.get(asset.sha256) ?? null;
}
