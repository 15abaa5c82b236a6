import * as z from 'zod';
import { outputFormatParam, publicUrlParam } from './render-fields.js';

export const RenderPlateParams = z
  .object({
    mode: z.enum(['blur', 'logo', 'solid']).default('blur').describe('How to replace each plate: blur it, print `logo` on it, or fill it with `color`'),
    logo: publicUrlParam('logo', 'Dealership logo; required when `mode` is `logo`'),
    color: z
      .string()
      .regex(/^#[0-9A-Fa-f]{6}$/)
      .default('#FFFFFF')
      .describe('Fill colour for `mode: solid`, `#RRGGBB`'),
    output_format: outputFormatParam(),
  })
  .strict()
  .superRefine((params, context) => {
    if (params.mode === 'logo' && params.logo === undefined) {
      context.addIssue({ code: 'custom', path: ['logo'], message: '`logo` is required when `mode` is `logo`' });
    }
  });
export type RenderPlateParams = z.output<typeof RenderPlateParams>;
