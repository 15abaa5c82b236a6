import * as z from 'zod/mini';
import { describe } from '../zod.js';
import { BoundingBox, Confidence, NeedsReview, SignedFile } from './common.js';
import { PartCategory, PartKey, Viewpoint } from './vocabulary.js';

const DecomposedPart = z.object({
  part: PartKey,
  label: describe(z.string(), 'Human-readable part name'),
  group: PartCategory,
  bbox: BoundingBox,
  z_order: describe(
    z.int().check(z.nonnegative()),
    'Stacking order, 0 = furthest from the camera; composite layers in ascending order',
  ),
  confidence: Confidence,
  layer: describe(
    z.nullable(SignedFile),
    'RGBA PNG of the part alone on a transparent canvas the size of the input; null when `return_layers` is false',
  ),
});

export const PartsDecomposeResult = z.object({
  viewpoint: describe(z.nullable(Viewpoint), 'Side of the vehicle in the photo; null when no vehicle is visible'),
  groups: describe(
    z.array(
      z.object({ group: PartCategory, parts: describe(z.array(PartKey), 'Parts of the group, in `parts` order') }),
    ),
    'Parts grouped by category; only non-empty groups',
  ),
  parts: describe(z.array(DecomposedPart), 'Parts in ascending `z_order`; empty when none'),
  needs_review: NeedsReview,
});
export type PartsDecomposeResult = z.infer<typeof PartsDecomposeResult>;
