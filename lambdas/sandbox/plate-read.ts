import { PlateReadParams } from '../schemas/params/plate-read.js';
import { generatePlate } from './plates.js';
import { pngFile, type Rgb } from './png.js';
import type { Rng } from './prng.js';
import { boxIn, fixtureConfidence } from './samples/readings.js';
import { SAMPLE_VEHICLE, type Sample } from './samples/scenes.js';
import type { PixelBox } from './samples/shapes.js';
import type { SandboxContext } from './support.js';
import { byConfidence, defineSandboxModel, needsReview } from './support.js';
import type { SandboxFile } from './types.js';

/** Countries whose plates are yellow (rear) or carry the blue EU band, for the crops. */
const YELLOW_PLATES = new Set(['NL', 'GB']);
const EU_BAND = new Set(['DE', 'AT', 'FR', 'IT', 'ES', 'NL', 'BE', 'PL', 'SE', 'IE']);

export const plateReadModel = defineSandboxModel('plate.read', PlateReadParams, (context) => {
  const { params } = context;
  const rng = context.rng();
  const sample = context.sample();
  if (sample) return { result: samplePlates(context, sample), billableUnits: context.assets.length };
  const count = context.empty ? 0 : rng.chance(0.2) ? 2 : 1;
  const found = Array.from({ length: count }, () => {
    const plate = generatePlate(rng, params.country);
    const width = rng.float(0.12, 0.3, 4);
    const height = Math.round(width * 0.3 * 10_000) / 10_000;
    const confidence = context.confidence(rng);
    return {
      text: plate.text,
      normalized: plate.normalized,
      confidence,
      bbox: { x: rng.float(0, 1 - width, 4), y: rng.float(0.4, 1 - height, 4), width, height },
      region: { country: plate.country, subdivision: plate.subdivision },
      // a country hint makes the region nearly certain; otherwise it is read from the format
      region_confidence: params.country ? context.confidence(rng, [0.95, 0.99]) : context.confidence(rng, [0.7, 0.95]),
    };
  });
  const plates = byConfidence(found.filter((plate) => context.passes(plate.confidence, params.min_confidence)))
    .slice(0, params.max_plates)
    .map((plate, i) => ({
      ...plate,
      crop: params.return_crops
        ? context.file(`plate-${i}.png`, plateCrop(rng, plate.region.country, plate.normalized))
        : null,
    }));
  return {
    result: { plates, needs_review: needsReview(plates.map((plate) => plate.confidence)) },
    billableUnits: context.assets.length,
  };
});

/** A plate-shaped PNG: background, optional EU band, dark bars standing in for characters. */
function plateCrop(rng: Rng, country: string | null, text: string): SandboxFile {
  const width = 94;
  const height = 20;
  const background: Rgb = country && YELLOW_PLATES.has(country) && rng.chance(0.5) ? [246, 204, 20] : [245, 245, 240];
  const band = country !== null && EU_BAND.has(country) ? 8 : 0;
  const step = (width - band - 6) / Math.max(1, text.length);
  return pngFile(width, height, 'rgb', (x, y) => {
    if (y < 1 || y >= height - 1 || x < 1 || x >= width - 1) return [20, 20, 20];
    if (x < band) return [0, 51, 153];
    const slot = (x - band - 3) / step;
    const inGlyph = slot >= 0 && slot < text.length && slot % 1 < 0.7 && y >= 4 && y < height - 4;
    return inGlyph ? [20, 20, 20] : background;
  });
}

/**
 * The plate drawn on a sample: its text and the box of its face; the plate carries no country code,
 * so its region is unknown. Samples without a readable plate have none.
 */
function samplePlates(context: SandboxContext<PlateReadParams>, sample: Sample) {
  const plate = sample.kind === 'car_photo' && !context.empty ? sample.view.plate : null;
  if (!plate || sample.kind !== 'car_photo') return { plates: [], needs_review: false };
  const confidence = fixtureConfidence(context);
  if (!context.passes(confidence, context.params.min_confidence)) return { plates: [], needs_review: false };
  const text = SAMPLE_VEHICLE.plate;
  const normalized = text.replace(/[^A-Z0-9]/g, '');
  const read = {
    text,
    normalized,
    confidence,
    bbox: boxIn(sample, plate),
    region: { country: null, subdivision: null },
    region_confidence: fixtureConfidence(context, 0.5),
    crop: context.params.return_crops ? context.file('plate-0.png', sampleCrop(plate, normalized)) : null,
  };
  return { plates: [read], needs_review: needsReview([confidence]) };
}

/** The plate's crop at the size it has in the sample. */
function sampleCrop(plate: PixelBox, text: string): SandboxFile {
  const width = Math.round(plate.width);
  const height = Math.round(plate.height);
  const band = Math.round(width * 0.082);
  const step = (width - band - 12) / text.length;
  return pngFile(width, height, 'rgb', (x, y) => {
    if (y < 2 || y >= height - 2 || x < 2 || x >= width - 2) return [17, 17, 17];
    if (x < band) return [28, 63, 158];
    const slot = (x - band - 6) / step;
    const inGlyph = slot >= 0 && slot < text.length && slot % 1 < 0.7 && y >= height * 0.2 && y < height * 0.8;
    return inGlyph ? [17, 17, 17] : [247, 247, 242];
  });
}
