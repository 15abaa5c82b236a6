import * as z from 'zod';
import { BoundingBox, Confidence, NeedsReview, Ratio } from './common.js';
import { DamageType, PartKey, Viewpoint } from './vocabulary.js';

const DetectedDamage = z.object({
  id: z
    .string()
    .regex(/^dmg_\d+$/)
    .describe('Identifier of the damage within this result'),
  part: PartKey,
  type: DamageType,
  bbox: BoundingBox,
  area_ratio: Ratio.describe('Share of the image covered by the damage'),
  estimated_area_cm2: z.number().nonnegative().describe('Estimated physical size of the damage'),
  confidence: Confidence,
});

export const DamageDetectResult = z.object({
  viewpoint: Viewpoint.nullable().describe('Side of the vehicle in the photo; null when no vehicle is visible'),
  damages: z.array(DetectedDamage).describe('Damages found, most confident first; empty when the visible panels are undamaged'),
  needs_review: NeedsReview,
});
export type DamageDetectResult = z.infer<typeof DamageDetectResult>;
