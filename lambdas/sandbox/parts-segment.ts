import { PartsSegmentParams } from '../schemas/params/parts-segment.js';
import type { BoundingBox } from '../schemas/results/common.js';
import { EXTERIOR_VIEWPOINTS } from '../schemas/results/vocabulary.js';
import { PARTS, partsVisibleFrom } from './parts-catalogue.js';
import { insideBox, pngFile } from './png.js';
import { round } from './prng.js';
import { drawnParts, fixtureConfidence, labelRaster, labelShare, outlineBoxIn } from './samples/readings.js';
import type { Sample } from './samples/scenes.js';
import { boxAround } from './samples/shapes.js';
import { defineSandboxModel, needsReview, randomBox, type SandboxContext } from './support.js';

/** Masks are returned at the size of a 4:3 input; the sandbox model knows no real pixels. */
const WIDTH = 64;
const HEIGHT = 48;

export const partsSegmentModel = defineSandboxModel('parts.segment', PartsSegmentParams, (context) => {
  const { params } = context;
  const rng = context.rng();
  const billableUnits = context.assets.length;
  if (context.empty)
    return { result: { viewpoint: null, parts: [], label_map: null, needs_review: false }, billableUnits };
  const sample = context.sample();
  if (sample) return { result: sampleSegments(context, sample), billableUnits };
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

/**
 * The parts drawn on a sample car, one label per pixel at the sample's own size: larger parts first,
 * so the lamps, grille and plate drawn on a panel keep their own pixels.
 */
function sampleSegments(context: SandboxContext<PartsSegmentParams>, sample: Sample) {
  if (sample.kind !== 'car_photo') return { viewpoint: null, parts: [], label_map: null, needs_review: false };
  const { width, height } = sample;
  const area = (outline: Parameters<typeof boxAround>[0][number]) => {
    const box = boxAround([outline]);
    return box.width * box.height;
  };
  const drawn = drawnParts(sample.view)
    .map((part) => ({ ...part, confidence: fixtureConfidence(context) }))
    .filter((part) => context.passes(part.confidence, context.params.min_confidence))
    .sort((a, b) => area(b.outline) - area(a.outline));
  const labels = labelRaster(
    width,
    height,
    drawn.map((part) => [part.outline]),
  );
  const wantMasks = context.params.output !== 'label_map';
  const parts = drawn.map((part, i) => ({
    part: part.part,
    label: part.info.label,
    label_value: i + 1,
    bbox: outlineBoxIn(sample, [part.outline]),
    area_ratio: labelShare(labels, i + 1),
    confidence: part.confidence,
    mask: wantMasks
      ? context.file(
          `mask-${part.part}.png`,
          pngFile(width, height, 'grey', (x, y) => [labels[y * width + x] === i + 1 ? 255 : 0]),
        )
      : null,
  }));
  return {
    viewpoint: sample.view.viewpoint,
    parts,
    label_map:
      context.params.output !== 'masks' && parts.length > 0
        ? context.file(
            'label-map.png',
            pngFile(width, height, 'grey', (x, y) => [labels[y * width + x] ?? 0]),
          )
        : null,
    needs_review: needsReview(parts.map((part) => part.confidence)),
  };
}
