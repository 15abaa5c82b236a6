import { VehicleIdentifyParams } from '../schemas/params/vehicle-identify.js';
import { round } from './prng.js';
import { fixtureConfidence } from './samples/readings.js';
import { SAMPLE_VEHICLE } from './samples/scenes.js';
import { defineSandboxModel, needsReview } from './support.js';
import { VEHICLE_MODELS } from './vehicles.js';

export const vehicleIdentifyModel = defineSandboxModel('vehicle.identify', VehicleIdentifyParams, (context) => {
  const { params } = context;
  const rng = context.rng();
  const billableUnits = context.assets.length;
  if (context.empty) return { result: { candidates: [], needs_review: false }, billableUnits };
  const sample = context.sample();
  if (sample) {
    // the sample car is the only candidate a sure classifier names; other samples show no car
    const confidence = fixtureConfidence(context);
    const candidates =
      sample.kind === 'car_photo'
        ? [
            {
              make: SAMPLE_VEHICLE.make,
              model: SAMPLE_VEHICLE.model,
              generation: SAMPLE_VEHICLE.generation,
              year_from: SAMPLE_VEHICLE.year,
              year_to: SAMPLE_VEHICLE.year,
              body_type: SAMPLE_VEHICLE.bodyType,
              confidence,
            },
          ]
        : [];
    return { result: { candidates, needs_review: needsReview(candidates.map((c) => c.confidence)) }, billableUnits };
  }
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
