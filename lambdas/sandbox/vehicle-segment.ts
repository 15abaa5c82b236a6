import { VehicleSegmentParams } from '../schemas/params/vehicle-segment.js';
import { type CarScene, carCoverage, carCutout, carMask } from './pictures.js';
import { hexToRgb } from './png.js';
import { round } from './prng.js';
import { defineSandboxModel, randomBox } from './support.js';
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
