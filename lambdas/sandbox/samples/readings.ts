import type { BoundingBox } from '../../schemas/results/common.js';
import { PARTS } from '../parts-catalogue.js';
import { hexToRgb, type Rgb } from '../png.js';
import { round } from '../prng.js';
import type { SandboxContext } from '../support.js';
import { type CarView, carBox } from './car-views.js';
import { type CarPhotoSample, type DrawnDamage, damageBox, SAMPLE_VEHICLE, type Sample } from './scenes.js';
import { boxAround, insideOutline, normalised, outlineArea, type PixelBox, type Point } from './shapes.js';

/**
 * What the test-mode backend reads off a sample scene: boxes in the results' convention, the
 * confidence a fixture reports, and pixel-exact rasters of drawn outlines at the sample's own size.
 */

/** A fixture is sure of what was drawn; `low_confidence` reports the same answer, unsure. */
export function fixtureConfidence(context: SandboxContext<unknown>, sure = 0.97): number {
  return context.low ? round(sure * 0.35, 3) : sure;
}

export function boxIn(image: { width: number; height: number }, box: PixelBox): BoundingBox {
  return normalised(box, image.width, image.height);
}

export function outlineBoxIn(image: { width: number; height: number }, outlines: readonly (readonly Point[])[]) {
  return boxIn(image, boxAround(outlines));
}

/**
 * Row-major label per pixel of a `width` x `height` image: 0 where no outline covers the pixel,
 * else the 1-based number of the last listed region that covers it (regions later in the list lie
 * in front).
 */
export function labelRaster(
  width: number,
  height: number,
  regions: readonly (readonly (readonly Point[])[])[],
): Uint8Array {
  const labels = new Uint8Array(width * height);
  regions.forEach((outlines, index) => {
    for (const outline of outlines) {
      const box = boxAround([outline]);
      const top = Math.max(0, Math.floor(box.y));
      const bottom = Math.min(height - 1, Math.ceil(box.y + box.height));
      const left = Math.max(0, Math.floor(box.x));
      const right = Math.min(width - 1, Math.ceil(box.x + box.width));
      for (let y = top; y <= bottom; y++)
        for (let x = left; x <= right; x++) if (insideOutline(x, y, outline)) labels[y * width + x] = index + 1;
    }
  });
  return labels;
}

/** Share of the image's pixels that carry `label`. */
export function labelShare(labels: Uint8Array, label: number): number {
  let count = 0;
  for (const value of labels) if (value === label) count++;
  return round(count / labels.length, 4);
}

/** The car's real extent seen from this view, to turn image areas into square centimetres. */
const CAR_LENGTH_CM = 428;
const CAR_WIDTH_CM = 179;

/** Square centimetres of car surface per square pixel in this view. */
export function squareCmPerPixel(view: CarView, carBox: PixelBox): number {
  const endOn = view.viewpoint === 'front' || view.viewpoint === 'rear';
  const cmPerPixel = (endOn ? CAR_WIDTH_CM : CAR_LENGTH_CM) / carBox.width;
  return cmPerPixel * cmPerPixel;
}

/** The parts drawn in a view with their catalogue label and category. */
export function drawnParts(view: CarView) {
  return view.parts.map((drawn) => ({ ...drawn, info: PARTS[drawn.part] }));
}

/** A drawn damage as detectors report it: its box, its share of the image and its real area. */
export function measuredDamage(sample: CarPhotoSample, damage: DrawnDamage) {
  const { shape } = damage;
  const pixels =
    shape.kind === 'fill'
      ? outlineArea(shape.outline)
      : shape.points.slice(1).reduce((length, [x, y], i) => {
          const [px, py] = shape.points[i] as Point;
          return length + Math.hypot(x - px, y - py);
        }, 0) * shape.stroke;
  return {
    part: damage.part,
    type: damage.type,
    bbox: boxIn(sample, damageBox(damage)),
    area_ratio: round(pixels / (sample.width * sample.height), 5),
    estimated_area_cm2: round(pixels * squareCmPerPixel(sample.view, carBox(sample.view)), 1),
  };
}

/**
 * How a render redraws the car of a sample photo: in its own colour, seen end-on (front, rear) or
 * side-on as it was drawn, where the photo had it; null for a sample that shows no car.
 */
export function drawnCarLook(sample: Sample | null): { body: Rgb; endOn: number; box: BoundingBox } | null {
  if (sample?.kind !== 'car_photo') return null;
  const { viewpoint } = sample.view;
  return {
    body: hexToRgb(SAMPLE_VEHICLE.color.hex),
    endOn: viewpoint === 'front' || viewpoint === 'rear' ? 1 : 0,
    box: boxIn(sample, carBox(sample.view)),
  };
}
