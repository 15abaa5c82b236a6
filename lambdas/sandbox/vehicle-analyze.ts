import { VehicleAnalyzeParams } from '../schemas/params/vehicle-analyze.js';
import { EXTERIOR_VIEWPOINTS } from '../schemas/results/vocabulary.js';
import { carBox } from './samples/car-views.js';
import { boxIn, fixtureConfidence } from './samples/readings.js';
import { SAMPLE_VEHICLE, type Sample } from './samples/scenes.js';
import { defineSandboxModel, needsReview, randomBox, type SandboxContext } from './support.js';
import { COMMON_COLORS, VEHICLE_COLORS, VEHICLE_MODELS } from './vehicles.js';

export const vehicleAnalyzeModel = defineSandboxModel('vehicle.analyze', VehicleAnalyzeParams, (context) => {
  const { params } = context;
  const rng = context.rng();
  const sample = context.sample();
  if (sample) return { result: sampleAnalysis(context, sample), billableUnits: context.assets.length };
  const scene = rng.pick(['outdoor', 'outdoor', 'indoor', 'studio'] as const);
  // the subject fills the frame; an occasional second car appears small in the background
  const count = context.empty ? 0 : rng.chance(0.3) ? 2 : 1;
  const vehicles = Array.from({ length: count }, (_, i) => ({
    bbox: i === 0 ? randomBox(rng, 0.55, 0.92) : randomBox(rng, 0.08, 0.25),
    confidence: context.confidence(rng),
    body_type: rng.pick(VEHICLE_MODELS).bodyType,
    color: rng.chance(0.8) ? rng.pick(COMMON_COLORS) : rng.pick(VEHICLE_COLORS),
    viewpoint: rng.pick(EXTERIOR_VIEWPOINTS),
    occlusion_ratio: i === 0 ? rng.float(0, 0.08, 2) : rng.float(0.1, 0.6, 2),
  }))
    .filter((vehicle) => context.passes(vehicle.confidence, params.min_confidence))
    .slice(0, params.max_vehicles);
  const sharpness = rng.float(0.55, 0.97, 2);
  const brightness = rng.float(0.3, 0.75, 2);
  const glare = rng.chance(0.15);
  return {
    result: {
      vehicles,
      primary_vehicle_index: vehicles.length > 0 ? 0 : null,
      scene,
      image_quality: params.include_image_quality
        ? {
            sharpness,
            brightness,
            exposure: brightness < 0.35 ? 'under' : brightness > 0.7 ? 'over' : 'ok',
            glare,
            usable: sharpness > 0.6 && !glare,
          }
        : null,
      needs_review: needsReview(vehicles.map((vehicle) => vehicle.confidence)),
    },
    billableUnits: context.assets.length,
  };
});

/** The car where a sample draws one (nothing hides it); a drawn picture is sharp, evenly lit and glare-free. */
function sampleAnalysis(context: SandboxContext<VehicleAnalyzeParams>, sample: Sample) {
  const image = sample.kind === 'engine_audio' || sample.kind === 'walkaround_video' ? null : sample;
  const confidence = fixtureConfidence(context);
  const vehicles =
    image?.kind === 'car_photo' && !context.empty && context.passes(confidence, context.params.min_confidence)
      ? [
          {
            bbox: boxIn(image, carBox(image.view)),
            confidence,
            body_type: SAMPLE_VEHICLE.bodyType,
            color: { name: SAMPLE_VEHICLE.color.name, hex: SAMPLE_VEHICLE.color.hex },
            viewpoint: image.view.viewpoint,
            occlusion_ratio: 0,
          },
        ]
      : [];
  return {
    vehicles,
    primary_vehicle_index: vehicles.length > 0 ? 0 : null,
    scene: image?.scene ?? ('outdoor' as const),
    image_quality: context.params.include_image_quality
      ? { sharpness: 0.95, brightness: 0.6, exposure: 'ok' as const, glare: false, usable: true }
      : null,
    needs_review: needsReview(vehicles.map((vehicle) => vehicle.confidence)),
  };
}
