import { PartsSegmentParams } from '../schemas/params/parts-segment.js';
import type { BoundingBox } from '../schemas/results/common.js';
import { EXTERIOR_VIEWPOINTS } from '../schemas/results/vocabulary.js';
import { PARTS, partsVisibleFrom } from './parts-catalogue.js';
import { insideBox, pngFile } from './png.js';
import { round } from './prng.js';
import { defineSandboxModel, needsReview, randomBox } from './support.js';

/** Masks are returned at the size of a 4:3 input; the sandbox model knows no real pixels. */
const WIDTH = 64;
const HEIGHT = 48;

export const partsSegmentModel = defineSandboxModel('parts.segment', PartsSegmentParams, (context) => {
  const { params } = context;
  const rng = context.rng();
  const billableUnits = context.assets.length;
  if (context.empty)
    return { result: { viewpoint: null, parts: [], label_map: null, needs_review: false }, billableUnits };
  const viewpoint = rng.pick(EXTERIOR_VIEWPOINTS);
  const candidates = rng.sample(partsVisibleFrom(viewpoint), rng.int(4, 8)).map((part) => ({
    part,
    bbox: randomBox(rng, 0.12, 0.5),
    confidence: context.confidence(rng, [0.6, 0.98]),
  }));
  // large parts are painted first so smaller ones in front of them stay visible
  const kept = candidates
    .filter((candidate) => context.passes(candidate.confidence, params.min_confidence))
    .sort((a, b) => b.bbox.width * b.bbox.height - a.bbox.width * a.bbox.height)
    .map((candidate, i) => ({ ...candidate, labelValue: i + 1 }));
  const labels = labelMap(kept);
  const wantMasks = params.output !== 'label_map';
  const parts = kept.map((candidate) => {
    const pixels = labels.filter((value) => value === candidate.labelValue).length;
    return {
      part: candidate.part,
      label: PARTS[candidate.part].label,
      label_value: candidate.labelValue,
      bbox: candidate.bbox,
      area_ratio: round(pixels / labels.length, 4),
      confidence: candidate.confidence,
      mask: wantMasks
        ? context.file(
            `mask-${candidate.part}.png`,
            pngFile(WIDTH, HEIGHT, 'grey', (x, y) => [labels[y * WIDTH + x] === candidate.labelValue ? 255 : 0]),
          )
        : null,
    };
  });
  const wantLabelMap = params.output !== 'masks' && parts.length > 0;
  return {
    result: {
      viewpoint,
      parts,
      label_map: wantLabelMap
        ? context.file(
            'label-map.png',
            pngFile(WIDTH, HEIGHT, 'grey', (x, y) => [labels[y * WIDTH + x] ?? 0]),
          )
        : null,
      needs_review: needsReview(parts.map((part) => part.confidence)),
    },
    billableUnits,
  };
});

/** Row-major label per pixel: the last (smallest) part covering it wins, 0 is background. */
function labelMap(parts: readonly { bbox: BoundingBox; labelValue: number }[]): number[] {
  const labels = new Array<number>(WIDTH * HEIGHT).fill(0);
  for (const part of parts) {
    for (let y = 0; y < HEIGHT; y++)
      for (let x = 0; x < WIDTH; x++)
        if (insideBox(x, y, WIDTH, HEIGHT, part.bbox)) labels[y * WIDTH + x] = part.labelValue;
  }
  return labels;
}
