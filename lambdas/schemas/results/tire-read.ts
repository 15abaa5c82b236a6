import * as z from 'zod';
import { BoundingBox, Confidence, NeedsReview } from './common.js';

const TireSize = z
  .object({
    text: z.string().describe('Size designation as printed, e.g. `205/55 R16 91V`'),
    width_mm: z.int().describe('Section width in mm'),
    aspect_ratio: z.int().describe('Sidewall height as a percentage of the width'),
    construction: z.enum(['R', 'D', 'B']).describe('R = radial, D = diagonal, B = bias belted'),
    rim_diameter_in: z.int().describe('Rim diameter in inches'),
    load_index: z.int().describe('Load index'),
    speed_rating: z
      .string()
      .regex(/^[A-Z]$/)
      .describe('Speed rating letter'),
  })
  .describe('Tire size from the sidewall');

const ReadTire = z.object({
  brand: z.string().nullable().describe('Manufacturer brand; null when not legible'),
  model: z.string().nullable().describe('Tread pattern / product line; null when not legible'),
  season: z.enum(['summer', 'winter', 'all_season']).nullable().describe('From the 3PMSF / M+S markings; null when unknown'),
  size: TireSize.nullable().describe('Null when not legible'),
  dot: z
    .object({
      text: z.string().describe('DOT code as printed, e.g. `DOT 4B3R JX2Y 4523`'),
      plant_code: z.string().describe('Manufacturing plant code (the two characters after `DOT`)'),
      confidence: Confidence,
    })
    .nullable()
    .describe('DOT code; null when not legible'),
  manufactured: z
    .object({
      week: z.int().min(1).max(53).describe('ISO week of manufacture'),
      year: z.int().describe('Year of manufacture'),
    })
    .nullable()
    .describe('From the last four DOT digits (WWYY); null when `decode_dot` is false or no DOT code was read'),
  confidence: Confidence,
  bbox: BoundingBox,
});

export const TireReadResult = z.object({
  tire: ReadTire.nullable().describe('The tire whose sidewall was read; null when no sidewall text is legible'),
  needs_review: NeedsReview,
});
export type TireReadResult = z.infer<typeof TireReadResult>;
