import * as z from 'zod';
import { BoundingBox, Confidence, NeedsReview, SignedFile } from './common.js';
import { PartCategory, PartKey, Viewpoint } from './vocabulary.js';

const DecomposedPart = z.object({
  part: PartKey,
  label: z.string().describe('Human-readable part name'),
  group: PartCategory,
  bbox: BoundingBox,
  z_order: z.int().nonnegative().describe('Stacking order, 0 = furthest from the camera; composite layers in ascending order'),
  confidence: Confidence,
  layer: SignedFile.nullable().describe('RGBA PNG of the part alone on a transparent canvas the size of the input; null when `return_layers` is false'),
});

export const PartsDecomposeResult = z.object({
  viewpoint: Viewpoint.nullable().describe('Side of the vehicle in the photo; null when no vehicle is visible'),
  groups: z
    .array(z.object({ group: PartCategory, parts: z.array(PartKey).describe('Parts of the group, in `parts` order') }))
    .describe('Parts grouped by category; only non-empty groups'),
  parts: z.array(DecomposedPart).describe('Parts in ascending `z_order`; empty when none'),
  needs_review: NeedsReview,
});
export type PartsDecomposeResult = z.infer<typeof PartsDecomposeResult>;
