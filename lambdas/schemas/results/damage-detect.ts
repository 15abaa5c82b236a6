import * as z from 'zod/mini';
import { describe } from '../zod.js';
import { BoundingBox, Confidence, NeedsReview, Ratio } from './common.js';
import { DamageType, PartKey, Viewpoint } from './vocabulary.js';

const DetectedDamage = z.object({
  id: describe(z.string().check(z.regex(/^dmg_\d+$/)), 'Identifier of the damage within this result'),
  part: PartKey,
  type: DamageType,
  bbox: BoundingBox,
  area_ratio: describe(Ratio, 'Share of the image covered by the damage'),
  estimated_area_cm2: describe(z.number().check(z.nonnegative()), 'Estimated physical size of the damage'),
  confidence: Confidence,
});

export const DamageDetectResult = z.object({
  viewpoint: describe(z.nullable(Viewpoint), 'Side of the vehicle in the photo; null when no vehicle is visible'),
  damages: describe(
    z.array(DetectedDamage),
    'Damages found, most confident first; empty when the visible panels are undamaged',
  ),
  needs_review: NeedsReview,
});
export type DamageDetectResult = z.infer<typeof DamageDetectResult>;
