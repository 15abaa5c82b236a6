import * as z from 'zod';
import { BoundingBox, Confidence, NeedsReview, SignedFile } from './common.js';
import { OutputFormat } from './vocabulary.js';

export const RenderPlateResult = z.object({
  image: SignedFile.describe('The image with every detected plate replaced; the unchanged image when none was found'),
  mode: z.enum(['blur', 'logo', 'solid']).describe('Replacement applied'),
  output_format: OutputFormat.describe('Format requested; `image.content_type` is the format delivered'),
  plates: z.array(z.object({ bbox: BoundingBox, confidence: Confidence })).describe('Plates found and replaced; empty when none'),
  needs_review: NeedsReview,
});
export type RenderPlateResult = z.infer<typeof RenderPlateResult>;
