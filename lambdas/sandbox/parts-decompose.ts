import { PartsDecomposeParams } from '../schemas/params/parts-decompose.js';
import {
  EXTERIOR_VIEWPOINTS,
  PART_CATEGORIES,
  type PartCategory,
  type PartKey,
} from '../schemas/results/vocabulary.js';
import { PARTS, partsVisibleFrom } from './parts-catalogue.js';
import { ellipseCoverage, hexToRgb, pngFile, type Rgb } from './png.js';
import { drawnParts, fixtureConfidence, labelRaster, outlineBoxIn } from './samples/readings.js';
import { SAMPLE_VEHICLE, type Sample } from './samples/scenes.js';
import { defineSandboxModel, needsReview, randomBox, type SandboxContext } from './support.js';
import { VEHICLE_COLORS } from './vehicles.js';

const WIDTH = 64;
const HEIGHT = 48;

/** Panels sit behind what is mounted on them: glass, lights, trim, then wheels in front. */
const DEPTH: Readonly<Record<PartCategory, number>> = { body: 0, glass: 1, lighting: 2, trim: 3, wheel: 4 };
const CATEGORY_TINT: Readonly<Record<Exclude<PartCategory, 'body'>, Rgb>> = {
  glass: [70, 90, 110],
  lighting: [235, 235, 220],
  trim: [40, 40, 44],
  wheel: [28, 28, 30],
};

export const partsDecomposeModel = defineSandboxModel('parts.decompose', PartsDecomposeParams, (context) => {
  const { params } = context;
  const rng = context.rng();
  const billableUnits = context.assets.length;
  if (context.empty) return { result: { viewpoint: null, groups: [], parts: [], needs_review: false }, billableUnits };
  const sample = context.sample();
  if (sample) return { result: sampleLayers(context, sample), billableUnits };
  const viewpoint = rng.pick(EXTERIOR_VIEWPOINTS);
  const paint = hexToRgb(rng.pick(VEHICLE_COLORS).hex);
  const decomposed = partsVisibleFrom(viewpoint)
    .map((part) => ({ part, bbox: randomBox(rng, 0.08, 0.45), confidence: context.confidence(rng, [0.6, 0.98]) }))
    .filter((candidate) => context.passes(candidate.confidence, params.min_confidence))
    .sort((a, b) => DEPTH[PARTS[a.part].category] - DEPTH[PARTS[b.part].category])
    .map((candidate, zOrder) => {
      const category = PARTS[candidate.part].category;
      const color = category === 'body' ? paint : CATEGORY_TINT[category];
      return {
        part: candidate.part,
        label: PARTS[candidate.part].label,
        group: category,
        bbox: candidate.bbox,
        z_order: zOrder,
        confidence: candidate.confidence,
        layer: params.return_layers
          ? context.file(
              `layer-${candidate.part}.png`,
              pngFile(WIDTH, HEIGHT, 'rgba', (x, y) => [
                ...color,
                255 * ellipseCoverage(x, y, WIDTH, HEIGHT, candidate.bbox, true),
              ]),
            )
          : null,
      };
    });
  return {
    result: {
      viewpoint,
      groups: groupsOf(decomposed),
      parts: decomposed,
      needs_review: needsReview(decomposed.map((part) => part.confidence)),
    },
    billableUnits,
  };
});

function groupsOf(parts: readonly { part: PartKey; group: PartCategory }[]) {
  return PART_CATEGORIES.map((group) => ({
    group,
    parts: parts.filter((part) => part.group === group).map((part) => part.part),
  })).filter((group) => group.parts.length > 0);
}

/** The parts drawn on a sample car as layers at the sample's own size, back to front. */
function sampleLayers(context: SandboxContext<PartsDecomposeParams>, sample: Sample) {
  if (sample.kind !== 'car_photo') return { viewpoint: null, groups: [], parts: [], needs_review: false };
  const { width, height } = sample;
  const paint = hexToRgb(SAMPLE_VEHICLE.color.hex);
  const parts = drawnParts(sample.view)
    .map((part) => ({ ...part, confidence: fixtureConfidence(context) }))
    .filter((part) => context.passes(part.confidence, context.params.min_confidence))
    .sort((a, b) => DEPTH[a.info.category] - DEPTH[b.info.category])
    .map((part, zOrder) => {
      const category = part.info.category;
      const color = category === 'body' ? paint : CATEGORY_TINT[category];
      const labels = context.params.return_layers ? labelRaster(width, height, [[part.outline]]) : null;
      return {
        part: part.part,
        label: part.info.label,
        group: category,
        bbox: outlineBoxIn(sample, [part.outline]),
        z_order: zOrder,
        confidence: part.confidence,
        layer: labels
          ? context.file(
              `layer-${part.part}.png`,
              pngFile(width, height, 'rgba', (x, y) => [...color, labels[y * width + x] ? 255 : 0]),
            )
          : null,
      };
    });
  return {
    viewpoint: sample.view.viewpoint,
    groups: groupsOf(parts),
    parts,
    needs_review: needsReview(parts.map((part) => part.confidence)),
  };
}
