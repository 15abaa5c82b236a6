import { DamageSeverityParams } from '../schemas/params/damage-severity.js';
import { EXTERIOR_VIEWPOINTS, type Severity } from '../schemas/results/vocabulary.js';
import { DAMAGE_TYPES_BY_CATEGORY, PARTS, partsVisibleFrom } from './parts-catalogue.js';
import { repairActionFor, SEVERITY_SCORE_BANDS } from './repair-rules.js';
import { defineSandboxModel, needsReview, randomBox } from './support.js';

/** Structural members: severe damage here suggests frame damage. */
const STRUCTURAL_PARTS = new Set([
  'rear_left_quarter_panel',
  'rear_right_quarter_panel',
  'left_rocker_panel',
  'right_rocker_panel',
  'roof',
]);

export const damageSeverityModel = defineSandboxModel('damage.severity', DamageSeverityParams, (context) => {
  const { params } = context;
  const rng = context.rng();
  const visible = partsVisibleFrom(rng.pick(EXTERIOR_VIEWPOINTS));
  const count = context.empty ? 0 : rng.int(1, 3);
  const graded = Array.from({ length: count }, () => {
    const part = rng.pick(visible);
    const type = rng.pick(DAMAGE_TYPES_BY_CATEGORY[PARTS[part].category]);
    // most real-world claims are minor or moderate
    const severity: Severity = rng.pick(['minor', 'minor', 'moderate', 'moderate', 'severe']);
    const [low, high] = SEVERITY_SCORE_BANDS[severity];
    return {
      part,
      type,
      severity,
      score: rng.float(low, high, 2),
      repair_action: params.include_repair_actions ? repairActionFor(part, type, severity) : null,
      bbox: randomBox(rng, 0.03, 0.3),
      confidence: context.confidence(rng, [0.6, 0.97]),
    };
  });
  const damages = graded
    .filter((damage) => context.passes(damage.confidence, params.min_confidence))
    .sort((a, b) => b.score - a.score);
  const worst = damages[0];
  const severe = damages.filter((damage) => damage.severity === 'severe');
  const overallConfidence = context.confidence(rng);
  return {
    result: {
      overall_severity: worst ? worst.severity : 'none',
      severity_score: worst ? worst.score : 0,
      drivable: !severe.some((damage) => ['wheel', 'lighting', 'glass'].includes(PARTS[damage.part].category)),
      structural_damage_suspected: severe.some(
        (damage) => STRUCTURAL_PARTS.has(damage.part) || damage.type === 'deformation',
      ),
      damages,
      confidence: overallConfidence,
      needs_review: needsReview([overallConfidence, ...damages.map((damage) => damage.confidence)]),
    },
    billableUnits: context.assets.length,
  };
});
