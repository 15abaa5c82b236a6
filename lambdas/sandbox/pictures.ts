import type { BoundingBox } from '../schemas/results/common.js';
import { ellipseCoverage, mix, pngFile, type Rgb } from './png.js';
import type { SandboxFile } from './types.js';

/**
 * Schematic "photos" for the image-producing sandbox models: a car silhouette (body, cabin,
 * two wheels) over a gradient. Recognisable at a glance, a few hundred bytes each.
 */

const TYRE: Rgb = [28, 28, 30];
const GLASS: Rgb = [70, 90, 110];

export interface CarScene {
  width: number;
  height: number;
  /** where the car sits in the frame */
  box: BoundingBox;
  body: Rgb;
  /** 0 = seen from the side (long silhouette), 1 = seen from front or rear (narrow) */
  endOn?: number;
}

/** Coverage (0..1) and colour of the car at pixel (x, y). */
function carPixel(
  scene: CarScene,
  x: number,
  y: number,
): { alpha: number; color: Rgb; part: 'wheel' | 'body' | 'cabin' | null } {
  const { width, height, box, body } = scene;
  const squeeze = 1 - 0.45 * (scene.endOn ?? 0);
  const bodyBox = {
    x: box.x + (box.width * (1 - squeeze)) / 2,
    y: box.y + box.height * 0.35,
    width: box.width * squeeze,
    height: box.height * 0.45,
  };
  const cabinBox = {
    x: bodyBox.x + bodyBox.width * 0.22,
    y: box.y + box.height * 0.05,
    width: bodyBox.width * 0.56,
    height: box.height * 0.5,
  };
  const wheelSize = box.height * 0.32;
  const wheels = [0.2, 0.8].map((at) => ({
    x: bodyBox.x + bodyBox.width * at - wheelSize / 2,
    y: box.y + box.height - wheelSize,
    width: wheelSize,
    height: wheelSize,
  }));
  for (const wheel of wheels) {
    const coverage = ellipseCoverage(x, y, width, height, wheel, true);
    if (coverage > 0) return { alpha: coverage, color: TYRE, part: 'wheel' };
  }
  const bodyCoverage = ellipseCoverage(x, y, width, height, bodyBox, true);
  if (bodyCoverage > 0) return { alpha: bodyCoverage, color: body, part: 'body' };
  const cabinCoverage = ellipseCoverage(x, y, width, height, cabinBox, true);
  if (cabinCoverage > 0) return { alpha: cabinCoverage, color: mix(body, GLASS, 0.6), part: 'cabin' };
  return { alpha: 0, color: body, part: null };
}

/** Pixel (x, y) of `carPhoto`, for sandbox models that paint more over the picture (banners, reflections). */
export function carPhotoPixel(scene: CarScene, wall: Rgb, floor: Rgb, x: number, y: number): Rgb {
  const backdrop = mix(wall, floor, y / Math.max(1, scene.height - 1));
  const car = carPixel(scene, x, y);
  return mix(backdrop, car.color, car.alpha);
}

/** The car composited over a vertical gradient (wall at the top, floor at the bottom). */
export function carPhoto(scene: CarScene, wall: Rgb, floor: Rgb): SandboxFile {
  return pngFile(scene.width, scene.height, 'rgb', (x, y) => carPhotoPixel(scene, wall, floor, x, y));
}

/** The car alone on a transparent canvas. */
export function carCutout(scene: CarScene): SandboxFile {
  return pngFile(scene.width, scene.height, 'rgba', (x, y) => {
    const car = carPixel(scene, x, y);
    return [...car.color, car.alpha * 255];
  });
}

/** Greyscale silhouette: 255 = car, 0 = background. */
export function carMask(scene: CarScene, soft: boolean): SandboxFile {
  return pngFile(scene.width, scene.height, 'grey', (x, y) => {
    const alpha = carPixel(scene, x, y).alpha;
    return [soft ? alpha * 255 : alpha >= 0.5 ? 255 : 0];
  });
}

/** Share of pixels that belong to the car (alpha at least one half). */
export function carCoverage(scene: CarScene): number {
  let inside = 0;
  for (let y = 0; y < scene.height; y++)
    for (let x = 0; x < scene.width; x++) if (carPixel(scene, x, y).alpha >= 0.5) inside++;
  return inside / (scene.width * scene.height);
}

const GIF_TYRE = 64;
const GIF_CABIN = 65;
const GIF_BODY = 66;

/** Palette index of pixel (x, y) for the GIF encoder: 0-63 backdrop ramp, then tyre, cabin, body. */
export function carGifIndex(scene: CarScene, x: number, y: number): number {
  const car = carPixel(scene, x, y);
  if (car.alpha >= 0.5 && car.part === 'wheel') return GIF_TYRE;
  if (car.alpha >= 0.5 && car.part === 'cabin') return GIF_CABIN;
  if (car.alpha >= 0.5) return GIF_BODY;
  return Math.round((y / Math.max(1, scene.height - 1)) * 63);
}

/** Palette matching `carGifIndex`. */
export function carGifPalette(body: Rgb, wall: Rgb, floor: Rgb): Rgb[] {
  const backdrop = Array.from({ length: 64 }, (_, i) => mix(wall, floor, i / 63));
  return [...backdrop, TYRE, mix(body, GLASS, 0.6), body];
}
