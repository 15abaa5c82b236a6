import { DamageDetectParams } from '../schemas/params/damage-detect.js';
import { EXTERIOR_VIEWPOINTS } from '../schemas/results/vocabulary.js';
import { DAMAGE_TYPES_BY_CATEGORY, PARTS, partsVisibleFrom } from './parts-catalogue.js';
import { round } from './prng.js';
import { fixtureConfidence, measuredDamage } from './samples/readings.js';
import type { Sample } from './samples/scenes.js';
import { byConfidence, defineSandboxModel, needsReview, randomBox, type SandboxContext } from './support.js';

/** Roughly what one side-on photo of a car spans (4 m x 1.5 m), to turn image share into cm². */
const FRAME_AREA_CM2 = 60_000;
const MINOR_DAMAGE_CM2 = 10;

export const damageDetectModel = defineSandboxModel('damage.detect', DamageDetectParams, (context) => {
  const rng = context.rng();
  const sample = context.sample();
  if (sample) return { result: sampleDamages(context, sample), billableUnits: context.assets.length };
  const viewpoint = rng.pick(EXTERIOR_VIEWPOINTS);
  const visible = partsVisibleFrom(viewpoint);
  const count = context.empty ? 0 : rng.int(1, 4);
  const found = Array.from({ length: count }, () => {
    const part = rng.pick(visible);
    const bbox = randomBox(rng, 0.01, 0.2);
    // damage is irregular: it fills only part of its box
    const areaRatio = round(bbox.width * bbox.height * rng.float(0.4, 0.85, 2), 5);
    return {
      part,
      type: rng.pick(DAMAGE_TYPES_BY_CATEGORY[PARTS[part].category]),
      bbox,
      area_ratio: areaRatio,
      estimated_area_cm2: round(areaRatio * FRAME_AREA_CM2, 1),
      confidence: context.confidence(rng, [0.6, 0.98]),
    };
  });
  const damages = kept(context, byConfidence(found));
  return {
    result: { viewpoint, damages, needs_review: needsReview(damages.map((damage) => damage.confidence)) },
    billableUnits: context.assets.length,
  };
});

/** What the parameters keep of the detections, numbered in the order reported. */
function kept<Damage extends { confidence: number; estimated_area_cm2: number }>(
  context: SandboxContext<DamageDetectParams>,
  found: Damage[],
) {
  const { params } = context;
  return found
    .filter((damage) => context.passes(damage.confidence, params.min_confidence))
    .filter((damage) => params.include_minor || damage.estimated_area_cm2 >= MINOR_DAMAGE_CM2)
    .slice(0, params.max_damages)
    .map((damage, i) => ({ id: `dmg_${i + 1}`, ...damage }));
}

/** The damage drawn on a sample car, in the order the scene draws it; other samples show no vehicle. */
function sampleDamages(context: SandboxContext<DamageDetectParams>, sample: Sample) {
  if (sample.kind !== 'car_photo') return { viewpoint: null, damages: [], needs_review: false };
  const drawn = context.empty ? [] : sample.damages;
  const damages = kept(
    context,
    drawn.map((damage) => ({ ...measuredDamage(sample, damage), confidence: fixtureConfidence(context) })),
  );
  return {
    viewpoint: sample.view.viewpoint,
    damages,
    needs_review: needsReview(damages.map((damage) => damage.confidence)),
  };
}
