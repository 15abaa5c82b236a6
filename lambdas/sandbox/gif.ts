import type { Rgb } from './png.js';
import type { SandboxFile } from './types.js';

/**
 * A minimal animated GIF encoder, for sandbox models whose live output is a moving picture
 * (spin previews, ad videos). It writes "uncompressed" LZW: 128-colour palette, so
 * every code is exactly 8 bits, and a clear code every 100 pixels keeps the decoder's
 * code width from ever growing. Valid for every decoder, just not small.
 */

const PALETTE_SIZE = 128;
const MIN_CODE_SIZE = 7;
const CLEAR_CODE = 1 << MIN_CODE_SIZE;
const END_CODE = CLEAR_CODE + 1;
const PIXELS_PER_CLEAR = 100;

export interface GifFrame {
  /** palette index (0..127) of pixel (x, y) */
  pixel: (x: number, y: number) => number;
  /** display time in hundredths of a second */
  delayCs: number;
}

export function encodeGif(
  width: number,
  height: number,
  palette: readonly Rgb[],
  frames: readonly GifFrame[],
): Uint8Array {
  if (palette.length === 0 || palette.length > PALETTE_SIZE)
    throw new Error(`GIF palette needs 1..${PALETTE_SIZE} colours`);
  const bytes: number[] = [];
  const u16 = (value: number) => bytes.push(value & 0xff, (value >> 8) & 0xff);

  bytes.push(...Buffer.from('GIF89a', 'ascii'));
  u16(width);
  u16(height);
  bytes.push(0xf6, 0, 0); // global colour table, 8-bit colour resolution, 2^(6+1) = 128 entries
  for (let i = 0; i < PALETTE_SIZE; i++)
    bytes.push(...(palette[i] ?? palette[0] ?? [0, 0, 0]).map((c) => Math.round(c)));
  // NETSCAPE2.0 application extension: loop forever
  bytes.push(0x21, 0xff, 0x0b, ...Buffer.from('NETSCAPE2.0', 'ascii'), 0x03, 0x01, 0x00, 0x00, 0x00);

  for (const frame of frames) {
    bytes.push(0x21, 0xf9, 0x04, 0x04); // graphic control extension, disposal: do not dispose
    u16(frame.delayCs);
    bytes.push(0x00, 0x00);
    bytes.push(0x2c);
    u16(0);
    u16(0);
    u16(width);
    u16(height);
    bytes.push(0x00, MIN_CODE_SIZE);
    const codes = lzwCodes(width, height, frame.pixel);
    for (let offset = 0; offset < codes.length; offset += 255) {
      const block = codes.slice(offset, offset + 255);
      bytes.push(block.length, ...block);
    }
    bytes.push(0x00);
  }
  bytes.push(0x3b);
  return Uint8Array.from(bytes);
}

function lzwCodes(width: number, height: number, pixel: (x: number, y: number) => number): number[] {
  const codes: number[] = [];
  let sinceClear = PIXELS_PER_CLEAR;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (sinceClear === PIXELS_PER_CLEAR) {
        codes.push(CLEAR_CODE);
        sinceClear = 0;
      }
      codes.push(Math.max(0, Math.min(PALETTE_SIZE - 1, Math.round(pixel(x, y)))));
      sinceClear++;
    }
  }
  codes.push(END_CODE);
  return codes;
}

export function gifFile(
  width: number,
  height: number,
  palette: readonly Rgb[],
  frames: readonly GifFrame[],
): SandboxFile {
  return { contentType: 'image/gif', bytes: encodeGif(width, height, palette, frames), width, height };
}
