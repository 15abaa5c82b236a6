import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import type { PixelBox } from './tesseract-engine.js';

/** An image's pixels, four bytes (RGBA) each, rows top to bottom. */
interface Pixels {
  width: number;
  height: number;
  data: Uint8Array;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** An image whose pixels would not fit the plane's memory is refused rather than decoded. */
const MAX_DECODED_MEGABYTES = 512;

/** The pixels of a PNG or JPEG (the inputs the plane reads). */
function decoded(bytes: Uint8Array): Pixels {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (PNG_SIGNATURE.every((byte, index) => bytes[index] === byte)) {
    const png = PNG.sync.read(buffer);
    return { width: png.width, height: png.height, data: png.data };
  }
  return jpeg.decode(buffer, { useTArray: true, formatAsRGBA: true, maxMemoryUsageInMB: MAX_DECODED_MEGABYTES });
}

/**
 * A PNG of the part of `image` inside `box` (pixels, clipped to the image): what plate.read returns
 * as a plate's `crop` when `return_crops` is true.
 */
export function pngCrop(image: Uint8Array, box: PixelBox): Uint8Array {
  const source = decoded(image);
  const left = Math.max(0, Math.floor(box.x0));
  const top = Math.max(0, Math.floor(box.y0));
  const right = Math.min(source.width, Math.ceil(box.x1));
  const bottom = Math.min(source.height, Math.ceil(box.y1));
  if (right <= left || bottom <= top) throw new Error('the crop box lies outside the image');
  const crop = new PNG({ width: right - left, height: bottom - top });
  for (let y = top; y < bottom; y++) {
    const from = (y * source.width + left) * 4;
    crop.data.set(source.data.subarray(from, from + (right - left) * 4), (y - top) * (right - left) * 4);
  }
  return new Uint8Array(PNG.sync.write(crop));
}
