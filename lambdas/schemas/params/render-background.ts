import * as z from 'zod';
import { RENDER_CATEGORIES } from '../results/vocabulary.js';
import { booleanParam } from './fields.js';
import { aspectRatioParam, backgroundParam, outputFormatParam } from './render-fields.js';

export const RenderBackgroundParams = z
  .object({
    background: backgroundParam(),
    category: z
      .enum(['auto', ...RENDER_CATEGORIES])
      .default('auto')
      .describe('Renderer override: `auto` routes exterior shots to the exterior renderer and interior, tire, trunk and engine shots to the interior renderer'),
    aspect_ratio: aspectRatioParam(),
    output_format: outputFormatParam(),
    return_cutout: booleanParam('Also return the transparent cutout the image was composited from; `cutout` is null when false', false),
    traceability: z.string().max(256).optional().describe('Opaque value of yours, returned unchanged on every result entry'),
  })
  .strict();
export type RenderBackgroundParams = z.output<typeof RenderBackgroundParams>;
