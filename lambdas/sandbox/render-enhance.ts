import { RenderEnhanceParams } from '../schemas/params/render-enhance.js';
import { ENHANCEMENTS } from '../schemas/results/render-enhance.js';
import { carPhoto } from './pictures.js';
import { hexToRgb } from './png.js';
import { round } from './prng.js';
import { carBox } from './samples/car-views.js';
import { boxIn } from './samples/readings.js';
import { SOURCE_PHOTO } from './studio.js';
import { defineSandboxModel, randomBox } from './support.js';
import { VEHICLE_COLORS } from './vehicles.js';

/** Output size at scale 1, i.e. a 4:3 input; upscaling multiplies both sides. */
const BASE_WIDTH = 64;
const BASE_HEIGHT = 48;

export const renderEnhanceModel = defineSandboxModel('render.enhance', RenderEnhanceParams, (context) => {
  const { params } = context;
  const rng = context.rng();
  const scale = params.upscale;
  const blurred = rng.chance(0.3);
  const applied = ENHANCEMENTS.filter((step) => {
    if (step === 'exposure' || step === 'white_balance') return params.auto_exposure;
    if (step === 'denoise') return params.denoise_strength > 0;
    if (step === 'deblur') return blurred;
    if (step === 'upscale') return scale > 1;
    return true; // sharpen always runs
  });
  const before = rng.float(0.35, 0.7, 2);
  // a sample comes back at its own size times the scale, the car where it was drawn (docs/test-fixtures.md)
  const sample = context.sample();
  const drawn = sample && 'width' in sample ? sample : null;
  const scene = {
    width: (drawn?.width ?? BASE_WIDTH) * scale,
    height: (drawn?.height ?? BASE_HEIGHT) * scale,
    box: drawn?.kind === 'car_photo' ? boxIn(drawn, carBox(drawn.view)) : randomBox(rng, 0.6, 0.85),
    body: hexToRgb(rng.pick(VEHICLE_COLORS).hex),
    endOn: rng.float(0, 1, 2),
  };
  return {
    result: {
      image: context.file('image.png', carPhoto(scene, SOURCE_PHOTO.wall, SOURCE_PHOTO.floor)),
      scale,
      output_format: params.output_format,
      applied,
      quality_before: before,
      quality_after: round(Math.min(0.98, before + rng.float(0.15, 0.35, 2)), 2),
    },
    billableUnits: context.assets.length,
  };
});
