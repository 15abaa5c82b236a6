import * as z from 'zod/mini';
import { describe } from '../zod.js';
import { BoundingBox, Confidence, NeedsReview, Ratio } from './common.js';
import { PartCategory, PartKey, Viewpoint } from './vocabulary.js';

const RecognizedPart = z.object({
  part: PartKey,
  label: describe(z.string(), 'Human-readable part name'),
  category: PartCategory,
  bbox: BoundingBox,
  visible_ratio: describe(Ratio, 'Share of the part that is visible in the photo'),
  confidence: Confidence,
});

export const PartsRecognizeResult = z.object({
  viewpoint: describe(z.nullable(Viewpoint), 'Side of the vehicle in the photo; null when no vehicle is visible'),
  parts: describe(z.array(RecognizedPart), 'Parts found, most confident first; empty when none'),
  needs_review: NeedsReview,
});
export type PartsRecognizeResult = z.infer<typeof PartsRecognizeResult>;
