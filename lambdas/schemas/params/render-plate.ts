import * as z from 'zod/mini';
import { describe } from '../zod.js';
import { outputFormatParam, publicUrlParam } from './render-fields.js';

export const RenderPlateParams = z
  .strictObject({
    mode: describe(
      z._default(z.enum(['blur', 'logo', 'solid']), 'blur'),
      'How to replace each plate: blur it, print `logo` on it, or fill it with `color`',
    ),
    logo: publicUrlParam('logo', 'Dealership logo; required when `mode` is `logo`'),
    color: describe(
      z._default(z.string().check(z.regex(/^#[0-9A-Fa-f]{6}$/)), '#FFFFFF'),
      'Fill colour for `mode: solid`, `#RRGGBB`',
    ),
    output_format: outputFormatParam(),
  })
  .check(
    z.superRefine((params, context) => {
      if (params.mode === 'logo' && params.logo === undefined) {
        context.addIssue({ code: 'custom', path: ['logo'], message: '`logo` is required when `mode` is `logo`' });
      }
    }),
  );
export type RenderPlateParams = z.output<typeof RenderPlateParams>;
