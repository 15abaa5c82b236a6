import * as z from 'zod/mini';
import { describe } from '../zod.js';
import { BoundingBox, Confidence, NeedsReview, Ratio, SignedFile } from './common.js';
import { PartKey, Viewpoint } from './vocabulary.js';

const SegmentedPart = z.object({
  part: PartKey,
  label: describe(z.string(), 'Human-readable part name'),
  label_value: describe(z.int().check(z.minimum(1), z.maximum(255)), 'Pixel value of this part in `label_map`'),
  bbox: BoundingBox,
  area_ratio: describe(Ratio, 'Share of the image covered by the part'),
  confidence: Confidence,
  mask: describe(z.nullable(SignedFile), 'Greyscale PNG, 255 = part; null when `output` is `label_map`'),
});

export const PartsSegmentResult = z.object({
  viewpoint: describe(z.nullable(Viewpoint), 'Side of the vehicle in the photo; null when no vehicle is visible'),
  parts: describe(z.array(SegmentedPart), 'Segmented parts; empty when none'),
  label_map: describe(
    z.nullable(SignedFile),
    'Greyscale PNG: 0 = background, otherwise the `label_value` of a part; null when `output` is `masks` or no part was found',
  ),
  needs_review: NeedsReview,
});
export type PartsSegmentResult = z.infer<typeof PartsSegmentResult>;
