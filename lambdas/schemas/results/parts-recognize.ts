import * as z from 'zod';
import { BoundingBox, Confidence, NeedsReview, Ratio } from './common.js';
import { PartCategory, PartKey, Viewpoint } from './vocabulary.js';

const RecognizedPart = z.object({
  part: PartKey,
  label: z.string().describe('Human-readable part name'),
  category: PartCategory,
  bbox: BoundingBox,
  visible_ratio: Ratio.describe('Share of the part that is visible in the photo'),
  confidence: Confidence,
});

export const PartsRecognizeResult = z.object({
  viewpoint: Viewpoint.nullable().describe('Side of the vehicle in the photo; null when no vehicle is visible'),
  parts: z.array(RecognizedPart).describe('Parts found, most confident first; empty when none'),
  needs_review: NeedsReview,
});
export type PartsRecognizeResult = z.infer<typeof PartsRecognizeResult>;
