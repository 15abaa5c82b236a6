import * as z from 'zod';
import { Ratio, SignedFile } from './common.js';
import { OutputFormat } from './vocabulary.js';

export const ENHANCEMENTS = ['denoise', 'sharpen', 'exposure', 'white_balance', 'deblur', 'upscale'] as const;

export const RenderEnhanceResult = z.object({
  image: SignedFile.describe('The improved image'),
  scale: z.literal([1, 2, 4]).describe('Resolution multiplier applied'),
  output_format: OutputFormat.describe('Format requested; `image.content_type` is the format delivered'),
  applied: z.array(z.enum(ENHANCEMENTS)).describe('Corrections applied, in processing order'),
  quality_before: Ratio.describe('Estimated quality of the input, 0 to 1'),
  quality_after: Ratio.describe('Estimated quality of the output, 0 to 1'),
});
export type RenderEnhanceResult = z.infer<typeof RenderEnhanceResult>;
