import * as z from 'zod/mini';
import { describe } from '../zod.js';
import { Ratio, SignedFile } from './common.js';
import { OutputFormat } from './vocabulary.js';

export const ENHANCEMENTS = ['denoise', 'sharpen', 'exposure', 'white_balance', 'deblur', 'upscale'] as const;

export const RenderEnhanceResult = z.object({
  image: describe(SignedFile, 'The improved image'),
  scale: describe(z.literal([1, 2, 4]), 'Resolution multiplier applied'),
  output_format: describe(OutputFormat, 'Format requested; `image.content_type` is the format delivered'),
  applied: describe(z.array(z.enum(ENHANCEMENTS)), 'Corrections applied, in processing order'),
  quality_before: describe(Ratio, 'Estimated quality of the input, 0 to 1'),
  quality_after: describe(Ratio, 'Estimated quality of the output, 0 to 1'),
});
export type RenderEnhanceResult = z.infer<typeof RenderEnhanceResult>;
