import { TireReadParams } from '../schemas/params/tire-read.js';
import { boxIn, fixtureConfidence } from './samples/readings.js';
import type { Sample } from './samples/scenes.js';
import { defineSandboxModel, needsReview, randomBox, type SandboxContext } from './support.js';

const PRODUCTS = [
  { brand: 'Michelin', model: 'Primacy 4+', season: 'summer' },
  { brand: 'Continental', model: 'PremiumContact 7', season: 'summer' },
  { brand: 'Bridgestone', model: 'Turanza 6', season: 'summer' },
  { brand: 'Pirelli', model: 'Cinturato P7', season: 'summer' },
  { brand: 'Hankook', model: 'Ventus Prime 4', season: 'summer' },
  { brand: 'Michelin', model: 'Alpin 7', season: 'winter' },
  { brand: 'Continental', model: 'WinterContact TS 870', season: 'winter' },
  { brand: 'Goodyear', model: 'Vector 4Seasons Gen-3', season: 'all_season' },
] as const;

const CODE_ALPHABET = 'ABCDEFHJKLMNPTUVWXY0123456789';

export const tireReadModel = defineSandboxModel('tire.read', TireReadParams, (context) => {
  const { params } = context;
  const rng = context.rng();
  const billableUnits = context.assets.length;
  if (context.empty) return { result: { tire: null, needs_review: false }, billableUnits };
  const sample = context.sample();
  if (sample) return { result: sampleTire(context, sample), billableUnits };
  const product = rng.pick(PRODUCTS);
  const width = rng.pick([185, 195, 205, 215, 225, 235, 245]);
  const aspect = rng.pick([40, 45, 50, 55, 60, 65]);
  const rim = rng.pick([15, 16, 17, 18, 19]);
  const loadIndex = rng.int(88, 103);
  const speedRating = rng.pick(['H', 'V', 'W', 'Y']);
  // the DOT date code is week then two-digit year, e.g. 4523 = week 45 of 2023
  const week = rng.int(1, 52);
  const year = rng.int(2018, 2025);
  const plant = rng.chars(CODE_ALPHABET, 2);
  const dotText = `DOT ${plant}${rng.chars(CODE_ALPHABET, 2)} ${rng.chars(CODE_ALPHABET, 4)} ${String(week).padStart(2, '0')}${String(year % 100).padStart(2, '0')}`;
  const dotConfidence = context.confidence(rng);
  const confidence = context.confidence(rng);
  const tire = {
    brand: product.brand,
    model: product.model,
    season: product.season,
    size: {
      text: `${width}/${aspect} R${rim} ${loadIndex}${speedRating}`,
      width_mm: width,
      aspect_ratio: aspect,
      construction: 'R' as const,
      rim_diameter_in: rim,
      load_index: loadIndex,
      speed_rating: speedRating,
    },
    dot: { text: dotText, plant_code: plant, confidence: dotConfidence },
    manufactured: params.decode_dot ? { week, year } : null,
    confidence,
    bbox: randomBox(rng, 0.5, 0.95),
  };
  const kept = context.passes(confidence, params.min_confidence) ? tire : null;
  return {
    result: { tire: kept, needs_review: kept !== null && needsReview([confidence, dotConfidence]) },
    billableUnits,
  };
});

/** The size and DOT code written on the sample tyre's sidewall; no brand or season marking is printed. */
function sampleTire(context: SandboxContext<TireReadParams>, sample: Sample) {
  if (sample.kind !== 'tire_photo') return { tire: null, needs_review: false };
  const { size, dot, center, radius } = sample;
  const confidence = fixtureConfidence(context);
  if (!context.passes(confidence, context.params.min_confidence)) return { tire: null, needs_review: false };
  return {
    tire: {
      brand: null,
      model: null,
      season: null,
      size: {
        text: size.text,
        width_mm: size.widthMm,
        aspect_ratio: size.aspectRatio,
        construction: 'R' as const,
        rim_diameter_in: size.rimDiameterIn,
        load_index: size.loadIndex,
        speed_rating: size.speedRating,
      },
      dot: { text: dot.text, plant_code: dot.plantCode, confidence },
      manufactured: context.params.decode_dot ? { week: dot.week, year: dot.year } : null,
      confidence,
      bbox: boxIn(sample, { x: center[0] - radius, y: center[1] - radius, width: 2 * radius, height: 2 * radius }),
    },
    needs_review: needsReview([confidence]),
  };
}
