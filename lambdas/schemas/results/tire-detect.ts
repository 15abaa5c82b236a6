import * as z from 'zod';
import { BoundingBox, Confidence, NeedsReview } from './common.js';

const TreadDepth = z
  .object({
    min: z.number().nonnegative().describe('Shallowest groove, mm'),
    average: z.number().nonnegative().describe('Mean over the measured grooves, mm'),
    max: z.number().nonnegative().describe('Deepest groove, mm'),
  })
  .describe('Tread depth in millimetres');

const DetectedTire = z.object({
  position: z.enum(['front_left', 'front_right', 'rear_left', 'rear_right', 'spare', 'unknown']).describe('Wheel position, when it can be told'),
  bbox: BoundingBox,
  tread_depth_mm: TreadDepth,
  wear: z.enum(['new', 'good', 'worn', 'replace']).describe('Wear grade: new > 7 mm, good > 4 mm, worn above the legal minimum, replace below it'),
  below_legal_minimum: z.boolean().describe('`tread_depth_mm.min` is below `legal_minimum_mm`'),
  uneven_wear: z.enum(['none', 'inner_edge', 'outer_edge', 'center', 'patchy']).describe('Wear pattern; anything but `none` hints at alignment or pressure problems'),
  sidewall_damage: z.boolean().describe('Cuts, bulges or cracks on the sidewall'),
  confidence: Confidence,
});

export const TireDetectResult = z.object({
  legal_minimum_mm: z.number().describe('Threshold used for `below_legal_minimum`'),
  tires: z.array(DetectedTire).describe('Tires assessed; empty when no tread is visible'),
  needs_review: NeedsReview,
});
export type TireDetectResult = z.infer<typeof TireDetectResult>;
