import * as z from 'zod/mini';
import { describe } from '../zod.js';
import { BoundingBox, Confidence, NeedsReview } from './common.js';

const TireSize = describe(
  z.object({
    text: describe(z.string(), 'Size designation as printed, e.g. `205/55 R16 91V`'),
    width_mm: describe(z.int(), 'Section width in mm'),
    aspect_ratio: describe(z.int(), 'Sidewall height as a percentage of the width'),
    construction: describe(z.enum(['R', 'D', 'B']), 'R = radial, D = diagonal, B = bias belted'),
    rim_diameter_in: describe(z.int(), 'Rim diameter in inches'),
    load_index: describe(z.int(), 'Load index'),
    speed_rating: describe(z.string().check(z.regex(/^[A-Z]$/)), 'Speed rating letter'),
  }),
  'Tire size from the sidewall',
);

const ReadTire = z.object({
  brand: describe(z.nullable(z.string()), 'Manufacturer brand; null when not legible'),
  model: describe(z.nullable(z.string()), 'Tread pattern / product line; null when not legible'),
  season: describe(
    z.nullable(z.enum(['summer', 'winter', 'all_season'])),
    'From the 3PMSF / M+S markings; null when unknown',
  ),
  size: describe(z.nullable(TireSize), 'Null when not legible'),
  dot: describe(
    z.nullable(
      z.object({
        text: describe(z.string(), 'DOT code as printed, e.g. `DOT 4B3R JX2Y 4523`'),
        plant_code: describe(z.string(), 'Manufacturing plant code (the two characters after `DOT`)'),
        confidence: Confidence,
      }),
    ),
    'DOT code; null when not legible',
  ),
  manufactured: describe(
    z.nullable(
      z.object({
        week: describe(z.int().check(z.minimum(1), z.maximum(53)), 'ISO week of manufacture'),
        year: describe(z.int(), 'Year of manufacture'),
      }),
    ),
    'From the last four DOT digits (WWYY); null when `decode_dot` is false or no DOT code was read',
  ),
  confidence: Confidence,
  bbox: BoundingBox,
});

export const TireReadResult = z.object({
  tire: describe(z.nullable(ReadTire), 'The tire whose sidewall was read; null when no sidewall text is legible'),
  needs_review: NeedsReview,
});
export type TireReadResult = z.infer<typeof TireReadResult>;
