import { VehicleSegmentParams } from '../schemas/params/vehicle-segment.js';
import { type CarScene, carCoverage, carCutout, carMask } from './pictures.js';
import { hexToRgb, pngFile } from './png.js';
import { round } from './prng.js';
import { carBox } from './samples/car-views.js';
import { boxIn, fixtureConfidence, labelRaster, labelShare } from './samples/readings.js';
import { SAMPLE_VEHICLE, type Sample } from './samples/scenes.js';
import { defineSandboxModel, randomBox, type SandboxContext } from './support.js';
import { VEHICLE_COLORS } from './vehicles.js';

/** Masks are returned at the size of a 4:3 input; the sandbox model knows no real pixels. */
const WIDTH = 64;
const HEIGHT = 48;

export const vehicleSegmentModel = defineSandboxModel('vehicle.segment', VehicleSegmentParams, (context) => {
  const { params } = context;
  const rng = context.rng();
  const billableUnits = context.assets.length;
  if (context.empty) {
    return {
      result: {
        vehicle_found: false,
        confidence: null,
        bbox: null,
        coverage_ratio: 0,
        mask: null,
        cutout: null,
        needs_review: false,
      },
      billableUnits,
    };
  }
  const sample = context.sample();
  if (sample) return { result: sampleSegmentation(context, sample), billableUnits };
  const bbox = randomBox(rng, 0.6, 0.9);
  const confidence = context.confidence(rng);
  const scene: CarScene = {
    width: WIDTH,
    height: HEIGHT,
    box: bbox,
    body: hexToRgb(rng.pick(VEHICLE_COLORS).hex),
    endOn: rng.float(0, 1, 2),
  };
  const wantMask = params.output !== 'cutout';
  const wantCutout = params.output !== 'mask';
  return {
    result: {
      vehicle_found: true,
      confidence,
      bbox,
      coverage_ratio: round(carCoverage(scene), 4),
      mask: wantMask ? context.file('mask.png', carMask(scene, params.refine_edges)) : null,
      cutout: wantCutout ? context.file('cutout.png', carCutout(scene)) : null,
      needs_review: confidence < 0.5,
    },
    billableUnits,
  };
});

const NOT_FOUND = {
  vehicle_found: false,
  confidence: null,
  bbox: null,
  coverage_ratio: 0,
  mask: null,
  cutout: null,
  needs_review: false,
};

/** The drawn car's silhouette, pixel for pixel at the sample's size; other samples show no car. */
function sampleSegmentation(context: SandboxContext<VehicleSegmentParams>, sample: Sample) {
  if (sample.kind !== 'car_photo') return NOT_FOUND;
  const { width, height, view } = sample;
  const labels = labelRaster(width, height, [view.silhouette]);
  const confidence = fixtureConfidence(context);
  const paint = hexToRgb(SAMPLE_VEHICLE.color.hex);
  const { output } = context.params;
  return {
    vehicle_found: true,
    confidence,
    bbox: boxIn(sample, carBox(view)),
    coverage_ratio: labelShare(labels, 1),
    mask:
      output !== 'cutout'
        ? context.file(
            'mask.png',
            pngFile(width, height, 'grey', (x, y) => [labels[y * width + x] ? 255 : 0]),
          )
        : null,
    cutout:
      output !== 'mask'
        ? context.file(
            'cutout.png',
            pngFile(width, height, 'rgba', (x, y) => (labels[y * width + x] ? [...paint, 255] : [0, 0, 0, 0])),
          )
        : null,
    needs_review: confidence < 0.5,
  };
}
