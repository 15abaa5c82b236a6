import * as z from 'zod/mini';
import { describe } from '../zod.js';
import { BoundingBox, Confidence, NeedsReview, SignedFile } from './common.js';
import { OutputFormat } from './vocabulary.js';

export const RenderPlateResult = z.object({
  image: describe(SignedFile, 'The image with every detected plate replaced; the unchanged image when none was found'),
  mode: describe(z.enum(['blur', 'logo', 'solid']), 'Replacement applied'),
  output_format: describe(OutputFormat, 'Format requested; `image.content_type` is the format delivered'),
  plates: describe(
    z.array(z.object({ bbox: BoundingBox, confidence: Confidence })),
    'Plates found and replaced; empty when none',
  ),
  needs_review: NeedsReview,
});
export type RenderPlateResult = z.infer<typeof RenderPlateResult>;
