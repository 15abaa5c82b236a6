import * as z from 'zod';
import { BoundingBox, Confidence, NeedsReview, Ratio, SignedFile } from './common.js';
import { PartKey, Viewpoint } from './vocabulary.js';

const SegmentedPart = z.object({
  part: PartKey,
  label: z.string().describe('Human-readable part name'),
  label_value: z.int().min(1).max(255).describe('Pixel value of this part in `label_map`'),
  bbox: BoundingBox,
  area_ratio: Ratio.describe('Share of the image covered by the part'),
  confidence: Confidence,
  mask: SignedFile.nullable().describe('Greyscale PNG, 255 = part; null when `output` is `label_map`'),
});

export const PartsSegmentResult = z.object({
  viewpoint: Viewpoint.nullable().describe('Side of the vehicle in the photo; null when no vehicle is visible'),
  parts: z.array(SegmentedPart).describe('Segmented parts; empty when none'),
  label_map: SignedFile.nullable().describe('Greyscale PNG: 0 = background, otherwise the `label_value` of a part; null when `output` is `masks` or no part was found'),
  needs_review: NeedsReview,
});
export type PartsSegmentResult = z.infer<typeof PartsSegmentResult>;
