import * as z from 'zod';
import { AssetFilename, AssetIndex, SignedFile } from './common.js';
import { AspectRatio, OutputFormat, RenderCategory } from './vocabulary.js';

const RenderedImage = z.object({
  index: AssetIndex,
  filename: AssetFilename,
  status: z
    .enum(['rendered', 'passthrough'])
    .describe('`passthrough` when `background` was an empty string: the source image is returned without replacement'),
  category: RenderCategory.describe('Kind of shot, given or detected'),
  renderer: z.enum(['exterior', 'interior']).describe('Renderer that produced the image'),
  background: z.string().describe('Background applied (empty string for passthrough)'),
  aspect_ratio: AspectRatio,
  output_format: OutputFormat.describe('Format requested; `image.content_type` is the format delivered'),
  image: SignedFile.describe('The re-backgrounded image'),
  cutout: SignedFile.nullable().describe('Transparent PNG cutout the image was composited from; null unless `return_cutout` is true'),
  traceability: z.string().nullable().describe('Your `traceability` value, unchanged; null when not given'),
});

export const RenderBackgroundResult = z.object({
  images: z.array(RenderedImage).describe('One entry per input image, in input order'),
});
export type RenderBackgroundResult = z.infer<typeof RenderBackgroundResult>;
