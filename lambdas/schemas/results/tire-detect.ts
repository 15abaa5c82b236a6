import * as z from 'zod/mini';
import { describe } from '../zod.js';
import { BoundingBox, Confidence, NeedsReview } from './common.js';

const TreadDepth = describe(
  z.object({
    min: describe(z.number().check(z.nonnegative()), 'Shallowest groove, mm'),
    average: describe(z.number().check(z.nonnegative()), 'Mean over the measured grooves, mm'),
    max: describe(z.number().check(z.nonnegative()), 'Deepest groove, mm'),
  }),
  'Tread depth in millimetres',
);

const DetectedTire = z.object({
  position: describe(
    z.enum(['front_left', 'front_right', 'rear_left', 'rear_right', 'spare', 'unknown']),
    'Wheel position, when it can be told',
  ),
  bbox: BoundingBox,
  tread_depth_mm: TreadDepth,
  wear: describe(
    z.enum(['new', 'good', 'worn', 'replace']),
    'Wear grade: new > 7 mm, good > 4 mm, worn above the legal minimum, replace below it',
  ),
  below_legal_minimum: describe(z.boolean(), '`tread_depth_mm.min` is below `legal_minimum_mm`'),
  uneven_wear: describe(
    z.enum(['none', 'inner_edge', 'outer_edge', 'center', 'patchy']),
    'Wear pattern; anything but `none` hints at alignment or pressure problems',
  ),
  sidewall_damage: describe(z.boolean(), 'Cuts, bulges or cracks on the sidewall'),
  confidence: Confidence,
});

export const TireDetectResult = z.object({
  legal_minimum_mm: describe(z.number(), 'Threshold used for `below_legal_minimum`'),
  tires: describe(z.array(DetectedTire), 'Tires assessed; empty when no tread is visible'),
  needs_review: NeedsReview,
});
export type TireDetectResult = z.infer<typeof TireDetectResult>;
