import { TireDetectParams } from '../schemas/params/tire-detect.js';
import { round } from './prng.js';
import { boxIn, fixtureConfidence } from './samples/readings.js';
import type { Sample } from './samples/scenes.js';
import { defineSandboxModel, needsReview, randomBox, type SandboxContext } from './support.js';

const POSITIONS = ['front_left', 'front_right', 'rear_left', 'rear_right'] as const;
const NEW_TREAD_MM = 7;
const GOOD_TREAD_MM = 4;

export const tireDetectModel = defineSandboxModel('tire.detect', TireDetectParams, (context) => {
  const { params } = context;
  const rng = context.rng();
  const sample = context.sample();
  if (sample) {
    const tires = context.empty ? [] : sampleTires(context, sample);
    return {
      result: {
        legal_minimum_mm: params.legal_minimum_mm,
        tires,
        needs_review: needsReview(tires.map((t) => t.confidence)),
      },
      billableUnits: context.assets.length,
    };
  }
  const count = context.empty ? 0 : rng.chance(0.25) ? 2 : 1;
  const positionKnown = rng.chance(0.6);
  const tires = rng
    .sample(POSITIONS, count)
    .map((position) => {
      const average = rng.float(1.2, 8.2, 1);
      const min = Math.max(0.5, round(average - rng.float(0, 0.9, 1), 1));
      return {
        position: positionKnown ? position : ('unknown' as const),
        bbox: randomBox(rng, 0.3, 0.7),
        tread_depth_mm: { min, average, max: round(average + rng.float(0, 0.6, 1), 1) },
        wear: wearOf(min, params.legal_minimum_mm),
        below_legal_minimum: min < params.legal_minimum_mm,
        uneven_wear: rng.pick(['none', 'none', 'none', 'inner_edge', 'outer_edge', 'center', 'patchy'] as const),
        sidewall_damage: rng.chance(0.08),
        confidence: context.confidence(rng),
      };
    })
    .filter((tire) => context.passes(tire.confidence, params.min_confidence));
  return {
    result: {
      legal_minimum_mm: params.legal_minimum_mm,
      tires,
      needs_review: needsReview(tires.map((tire) => tire.confidence)),
    },
    billableUnits: context.assets.length,
  };
});

function wearOf(minMm: number, legalMinimumMm: number) {
  if (minMm > NEW_TREAD_MM) return 'new' as const;
  if (minMm > GOOD_TREAD_MM) return 'good' as const;
  return minMm >= legalMinimumMm ? ('worn' as const) : ('replace' as const);
}

/**
 * The sample tyre, its tread as deep as drawn and evenly worn; its position on a car is not in the
 * picture. Tread depth needs a close-up of a tyre, so the car photos answer none.
 */
function sampleTires(context: SandboxContext<TireDetectParams>, sample: Sample) {
  if (sample.kind !== 'tire_photo') return [];
  const { center, radius, treadDepthMm } = sample;
  const confidence = fixtureConfidence(context);
  if (!context.passes(confidence, context.params.min_confidence)) return [];
  return [
    {
      position: 'unknown' as const,
      bbox: boxIn(sample, { x: center[0] - radius, y: center[1] - radius, width: 2 * radius, height: 2 * radius }),
      tread_depth_mm: { min: treadDepthMm, average: treadDepthMm, max: treadDepthMm },
      wear: wearOf(treadDepthMm, context.params.legal_minimum_mm),
      below_legal_minimum: treadDepthMm < context.params.legal_minimum_mm,
      uneven_wear: 'none' as const,
      sidewall_damage: false,
      confidence,
    },
  ];
}
