import { RenderPlateParams } from '../schemas/params/render-plate.js';
import type { BoundingBox } from '../schemas/results/common.js';
import { ellipseCoverage, hexToRgb, insideBox, mix, pngFile, type Rgb } from './png.js';
import { Rng } from './prng.js';
import { carBox } from './samples/car-views.js';
import { boxIn, fixtureConfidence } from './samples/readings.js';
import { SOURCE_PHOTO } from './studio.js';
import { defineSandboxModel, needsReview } from './support.js';
import { VEHICLE_COLORS } from './vehicles.js';

/** The output of any input but a sample: a small picture of a car, its plates where the model put them. */
const WIDTH = 64;
const HEIGHT = 48;
const CAR_BOX = { x: 0.1, y: 0.2, width: 0.8, height: 0.65 };
const BLURRED_PLATE: Rgb = [168, 168, 160];

export const renderPlateModel = defineSandboxModel('render.plate', RenderPlateParams, (context) => {
  const { params } = context;
  const rng = context.rng();
  const body = hexToRgb(rng.pick(VEHICLE_COLORS).hex);
  const sample = context.sample();
  const count = context.empty ? 0 : rng.chance(0.15) ? 2 : 1;
  const invented = Array.from({ length: count }, (_, i) => {
    const width = rng.float(0.16, 0.26, 4);
    // plates sit low on the car: on the bumper, left-to-right in image order
    const box: BoundingBox = {
      x: Math.round((0.12 + i * 0.45 + rng.float(0, 0.1, 4)) * 10_000) / 10_000,
      y: rng.float(0.62, 0.72, 4),
      width,
      height: Math.round(width * 0.3 * 10_000) / 10_000,
    };
    return { bbox: box, confidence: context.confidence(rng) };
  });
  // a sample is answered at its own size, its plate covered where it was drawn (docs/test-fixtures.md)
  const drawn = sample && 'width' in sample ? sample : null;
  const width = drawn?.width ?? WIDTH;
  const height = drawn?.height ?? HEIGHT;
  const carArea = drawn?.kind === 'car_photo' ? boxIn(drawn, carBox(drawn.view)) : drawn ? null : CAR_BOX;
  const plates = !drawn
    ? invented
    : drawn.kind === 'car_photo' && drawn.view.plate && !context.empty
      ? [{ bbox: boxIn(drawn, drawn.view.plate), confidence: fixtureConfidence(context) }]
      : [];
  const fill: Rgb =
    params.mode === 'solid' ? hexToRgb(params.color) : params.mode === 'logo' ? [255, 255, 255] : BLURRED_PLATE;
  // a logo is drawn as a coloured disc whose colour is stable for the logo URL
  const logoRng = Rng.fromParts('logo', params.logo ?? '');
  const logoColor: Rgb = [logoRng.int(0, 200), logoRng.int(0, 200), logoRng.int(0, 200)];
  const image = pngFile(width, height, 'rgb', (x, y) => {
    const plate = plates.find((candidate) => insideBox(x, y, width, height, candidate.bbox));
    if (plate) {
      const logoCoverage = params.mode === 'logo' ? ellipseCoverage(x, y, width, height, plate.bbox, true) : 0;
      return mix(fill, logoColor, logoCoverage);
    }
    const backdrop = mix(SOURCE_PHOTO.wall, SOURCE_PHOTO.floor, y / (height - 1));
    return carArea ? mix(backdrop, body, ellipseCoverage(x, y, width, height, carArea, true)) : backdrop;
  });
  return {
    result: {
      image: context.file('image.png', image),
      mode: params.mode,
      output_format: params.output_format,
      plates,
      needs_review: needsReview(plates.map((plate) => plate.confidence)),
    },
    billableUnits: context.assets.length,
  };
});
