import { PartsRecognizeParams } from '../schemas/params/parts-recognize.js';
import { EXTERIOR_VIEWPOINTS } from '../schemas/results/vocabulary.js';
import { PARTS, partsVisibleFrom } from './parts-catalogue.js';
import { drawnParts, fixtureConfidence, outlineBoxIn } from './samples/readings.js';
import { byConfidence, defineSandboxModel, needsReview, randomBox } from './support.js';

export const partsRecognizeModel = defineSandboxModel('parts.recognize', PartsRecognizeParams, (context) => {
  const { params } = context;
  const rng = context.rng();
  const billableUnits = context.assets.length;
  if (context.empty) return { result: { viewpoint: null, parts: [], needs_review: false }, billableUnits };
  const sample = context.sample();
  if (sample) {
    if (sample.kind !== 'car_photo')
      return { result: { viewpoint: null, parts: [], needs_review: false }, billableUnits };
    const parts = drawnParts(sample.view)
      .map((drawn) => ({
        part: drawn.part,
        label: drawn.info.label,
        category: drawn.info.category,
        bbox: outlineBoxIn(sample, [drawn.outline]),
        visible_ratio: 1,
        confidence: fixtureConfidence(context),
      }))
      .filter((part) => context.passes(part.confidence, params.min_confidence))
      .slice(0, params.max_parts);
    return {
      result: { viewpoint: sample.view.viewpoint, parts, needs_review: needsReview(parts.map((p) => p.confidence)) },
      billableUnits,
    };
  }
  const viewpoint = rng.pick(EXTERIOR_VIEWPOINTS);
  const found = partsVisibleFrom(viewpoint).map((part) => ({
    part,
    label: PARTS[part].label,
    category: PARTS[part].category,
    bbox: randomBox(rng, 0.05, 0.45),
    visible_ratio: rng.float(0.4, 1, 2),
    // small or half-hidden parts are recognised less surely
    confidence: context.confidence(rng, [0.55, 0.99]),
  }));
  const parts = byConfidence(found)
    .filter((part) => context.passes(part.confidence, params.min_confidence))
    .slice(0, params.max_parts);
  return {
    result: { viewpoint, parts, needs_review: needsReview(parts.map((part) => part.confidence)) },
    billableUnits,
  };
});
