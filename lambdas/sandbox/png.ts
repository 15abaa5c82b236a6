import { deflateSync } from 'node:zlib';
import type { SandboxFile } from './types.js';

/**
 * A minimal PNG encoder (8-bit greyscale, RGB or RGBA, no interlace, filter 0), so
 * sandbox models can return real, viewable images without an image library.
 */

export type Rgb = readonly [number, number, number];

const SIGNATURE = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);
const COLOR_TYPE = { grey: 0, rgb: 2, rgba: 6 } as const;
const CHANNELS = { grey: 1, rgb: 3, rgba: 4 } as const;

type Mode = keyof typeof COLOR_TYPE;

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

export function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (CRC_TABLE[(crc ^ byte) & 0xff] as number) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const typeAndData = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  typeAndData.copy(out, 4);
  out.writeUInt32BE(crc32(typeAndData), 8 + data.length);
  return out;
}

/** `pixel(x, y)` returns one value per channel (0-255): 1 for grey, 3 for rgb, 4 for rgba. */
export function encodePng(
  width: number,
  height: number,
  mode: Mode,
  pixel: (x: number, y: number) => readonly number[],
): Uint8Array {
  const channels = CHANNELS[mode];
  const stride = 1 + width * channels;
  const raw = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    raw[y * stride] = 0; // filter type None per scanline
    for (let x = 0; x < width; x++) {
      const value = pixel(x, y);
      for (let c = 0; c < channels; c++) raw[y * stride + 1 + x * channels + c] = clampByte(value[c] ?? 0);
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = COLOR_TYPE[mode];
  // compression, filter and interlace methods all 0
  return new Uint8Array(
    Buffer.concat([
      SIGNATURE,
      chunk('IHDR', header),
      chunk('IDAT', deflateSync(raw)),
      chunk('IEND', new Uint8Array(0)),
    ]),
  );
}

export function pngFile(
  width: number,
  height: number,
  mode: Mode,
  pixel: (x: number, y: number) => readonly number[],
): SandboxFile {
  return { contentType: 'image/png', bytes: encodePng(width, height, mode, pixel), width, height };
}

function clampByte(value: number): number {
  return Math.max(0, Math.min(255, Math.round(value)));
}

/** Linear blend between two colours, t in [0, 1]. */
export function mix(from: Rgb, to: Rgb, t: number): Rgb {
  return [from[0] + (to[0] - from[0]) * t, from[1] + (to[1] - from[1]) * t, from[2] + (to[2] - from[2]) * t];
}

export function hexToRgb(hex: string): Rgb {
  const value = Number.parseInt(hex.replace('#', ''), 16);
  return [(value >> 16) & 0xff, (value >> 8) & 0xff, value & 0xff];
}

/** Smallest file sizes that still show the aspect ratio. */
export const DIMENSIONS_BY_ASPECT: Readonly<Record<string, readonly [number, number]>> = {
  '4:3': [64, 48],
  '16:9': [64, 36],
  '3:2': [60, 40],
  '9:16': [36, 64],
  '1:1': [48, 48],
};

export function dimensionsFor(aspectRatio: string): readonly [number, number] {
  return DIMENSIONS_BY_ASPECT[aspectRatio] ?? [64, 48];
}

/** Ellipse coverage (0..1) of pixel (x, y) for an ellipse filling a normalised box; soft edges anti-alias. */
export function ellipseCoverage(
  x: number,
  y: number,
  width: number,
  height: number,
  box: { x: number; y: number; width: number; height: number },
  soft: boolean,
): number {
  const cx = (box.x + box.width / 2) * width;
  const cy = (box.y + box.height / 2) * height;
  const rx = Math.max(0.5, (box.width * width) / 2);
  const ry = Math.max(0.5, (box.height * height) / 2);
  const distance = Math.hypot((x + 0.5 - cx) / rx, (y + 0.5 - cy) / ry);
  if (!soft) return distance <= 1 ? 1 : 0;
  const edge = 1.5 / Math.min(rx, ry); // about 1.5 px of feathering
  return Math.max(0, Math.min(1, (1 + edge - distance) / (2 * edge)));
}

export function insideBox(
  x: number,
  y: number,
  width: number,
  height: number,
  box: { x: number; y: number; width: number; height: number },
): boolean {
  const px = (x + 0.5) / width;
  const py = (y + 0.5) / height;
  return px >= box.x && px <= box.x + box.width && py >= box.y && py <= box.y + box.height;
}
