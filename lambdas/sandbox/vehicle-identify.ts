import { VehicleIdentifyParams } from '../schemas/params/vehicle-identify.js';
import { round } from './prng.js';
import { defineSandboxModel, needsReview } from './support.js';
import { VEHICLE_MODELS } from './vehicles.js';

export const vehicleIdentifyModel = defineSandboxModel('vehicle.identify', VehicleIdentifyParams, (context) => {
  const { params } = context;
  const rng = context.rng();
  const billableUnits = context.assets.length;
  if (context.empty) return { result: { candidates: [], needs_review: false }, billableUnits };
  // the best guess takes most of the probability mass; runners-up share what is left
  let confidence = context.confidence(rng, [0.78, 0.97]);
  // runners-up look like the best guess: same body style first, as a real classifier confuses them
  const best = rng.pick(VEHICLE_MODELS);
  const others = rng
    .sample(
      VEHICLE_MODELS.filter((model) => model !== best),
      VEHICLE_MODELS.length,
    )
    .sort((a, b) => Number(b.bodyType === best.bodyType) - Number(a.bodyType === best.bodyType));
  const candidates = [best, ...others].slice(0, params.top_k).map((model, i) => {
    if (i > 0) confidence = round(confidence * rng.float(0.15, 0.5, 2), 3);
    const yearFrom = rng.int(model.yearFrom, model.yearTo);
    return {
      make: model.make,
      model: model.model,
      generation: model.generation,
      year_from: yearFrom,
      year_to: Math.min(model.yearTo, yearFrom + rng.int(0, 3)),
      body_type: model.bodyType,
      confidence,
    };
  });
  return {
    result: { candidates, needs_review: needsReview(candidates.slice(0, 1).map((candidate) => candidate.confidence)) },
    billableUnits,
  };
});
