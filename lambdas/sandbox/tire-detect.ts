import { TireDetectParams } from '../schemas/params/tire-detect.js';
import { round } from './prng.js';
import { defineSandboxModel, needsReview, randomBox } from './support.js';

const POSITIONS = ['front_left', 'front_right', 'rear_left', 'rear_right'] as const;
const NEW_TREAD_MM = 7;
const GOOD_TREAD_MM = 4;

export const tireDetectModel = defineSandboxModel('tire.detect', TireDetectParams, (context) => {
  const { params } = context;
  const rng = context.rng();
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
        wear:
          min > NEW_TREAD_MM
            ? ('new' as const)
            : min > GOOD_TREAD_MM
              ? ('good' as const)
              : min >= params.legal_minimum_mm
                ? ('worn' as const)
                : ('replace' as const),
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
