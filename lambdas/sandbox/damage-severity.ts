import { DamageSeverityParams } from '../schemas/params/damage-severity.js';
import { type DamageType, EXTERIOR_VIEWPOINTS, type PartKey, type Severity } from '../schemas/results/vocabulary.js';
import { DAMAGE_TYPES_BY_CATEGORY, PARTS, partsVisibleFrom } from './parts-catalogue.js';
import { repairActionFor, SEVERITY_SCORE_BANDS } from './repair-rules.js';
import { fixtureConfidence, measuredDamage } from './samples/readings.js';
import type { CarPhotoSample, Sample } from './samples/scenes.js';
import { defineSandboxModel, needsReview, randomBox, type SandboxContext } from './support.js';

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
  const sample = context.sample();
  if (sample) return { result: sampleSeverity(context, sample), billableUnits: context.assets.length };
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
  return { result: verdict(damages, context.confidence(rng)), billableUnits: context.assets.length };
});

/** The overall verdict over graded damages, worst first. */
function verdict<
  Damage extends { part: PartKey; type: DamageType; severity: Severity; score: number; confidence: number },
>(damages: Damage[], overallConfidence: number) {
  const worst = damages[0];
  const severe = damages.filter((damage) => damage.severity === 'severe');
  return {
    overall_severity: worst ? worst.severity : ('none' as const),
    severity_score: worst ? worst.score : 0,
    drivable: !severe.some((damage) => ['wheel', 'lighting', 'glass'].includes(PARTS[damage.part].category)),
    structural_damage_suspected: severe.some(
      (damage) => STRUCTURAL_PARTS.has(damage.part) || damage.type === 'deformation',
    ),
    damages,
    confidence: overallConfidence,
    needs_review: needsReview([overallConfidence, ...damages.map((damage) => damage.confidence)]),
  };
}

/** The damage drawn on a sample car, graded as its scene grades it (score: the middle of its band). */
function sampleSeverity(context: SandboxContext<DamageSeverityParams>, sample: Sample) {
  const photo = sample.kind === 'car_photo' && !context.empty ? sample : null;
  const damages = (photo?.damages ?? [])
    .map((damage) => {
      const [low, high] = SEVERITY_SCORE_BANDS[damage.severity];
      return {
        part: damage.part,
        type: damage.type,
        severity: damage.severity,
        score: Math.round(((low + high) / 2) * 100) / 100,
        repair_action: context.params.include_repair_actions
          ? repairActionFor(damage.part, damage.type, damage.severity)
          : null,
        bbox: measuredDamage(photo as CarPhotoSample, damage).bbox,
        confidence: fixtureConfidence(context),
      };
    })
    .filter((damage) => context.passes(damage.confidence, context.params.min_confidence))
    .sort((a, b) => b.score - a.score);
  return verdict(damages, fixtureConfidence(context));
}
