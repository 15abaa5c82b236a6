import * as z from 'zod/mini';
import { AspectRatio, RENDER_CATEGORIES } from '../results/vocabulary.js';
import { describe, preprocess } from '../zod.js';
import { booleanParam, numberParam, optionalIntegerParam } from './fields.js';
import {
  backgroundParam,
  interiorSetParam,
  optionalHexColorParam,
  organisationAssetParam,
  outputFormatParam,
  publicUrlParam,
} from './render-fields.js';

/**
 * `render.background`: every purpose the endpoint serves, under the parameter names
 * documented in docs/results.md. Multipart text fields and JSON values validate alike
 * (numbers and booleans accept their string forms).
 */

const DECIMAL_STRING = /^-?(?:\d+\.?\d*|\.\d+)$/;

/**
 * Camera roll: degrees, or null for automatic detection. JSON sends `null`; a multipart text
 * field cannot carry null, so there the empty string or the word `null` mean the same.
 */
function cameraRollParam() {
  return describe(
    preprocess(
      (value) => {
        if (value === '' || value === 'null') return null;
        if (typeof value === 'string' && DECIMAL_STRING.test(value.trim())) return Number(value.trim());
        return value;
      },
      z._default(z.nullable(z.number().check(z.minimum(-180), z.maximum(180))), null),
    ),
    'Camera roll in degrees (-180 to 180) to level the horizon; null (multipart: empty or `null`) detects it automatically',
  );
}

const exclusive = (first: string, second: string) => ({
  code: 'custom' as const,
  path: [second],
  message: `${first} and ${second} are mutually exclusive: send only one of them.`,
  params: { error_code: 'parameters_exclusive' },
});

export const RenderBackgroundParams = z
  .strictObject({
    background: backgroundParam(),
    category: describe(
      z._default(z.enum(['auto', ...RENDER_CATEGORIES]), 'auto'),
      'Renderer override. `auto` routes by position: a position folder in the filename path (`exterior/`, `front_left/`, `interior/`, `tires/`, `trunk/`, `engine/`…) or, with `position_from_pixels`, the pixels; exterior shots go to the exterior renderer, interior, tire, trunk and engine shots to the interior renderer. Any other value forces that category for every image',
    ),
    interior_set: interiorSetParam(),
    fallback_color: describe(
      z._default(
        z.string().check(z.regex(/^#[0-9A-Fa-f]{8}$/, { message: 'must be # followed by eight hex digits (RGBA)' })),
        '#FFFFFFFF',
      ),
      'RGBA colour `#RRGGBBAA` painted behind a non-exterior shot when `interior_set` has no image for its category',
    ),
    aspect_ratio: describe(
      z.optional(AspectRatio),
      'Output aspect ratio; default `4:3`, or `16:9` when a banner is set (any banner forces `16:9`: another ratio with a banner is a 400)',
    ),
    enhancement_mode: describe(
      z._default(z.enum(['fine_grain', 'GAN', 'None']), 'fine_grain'),
      'Image enhancement: `fine_grain` (highest quality), `GAN` (faster) or `None`',
    ),
    denoise_strength: numberParam(
      'Fine-grain denoising strength, 0 to 1 (used with `enhancement_mode: fine_grain`); values above 0.2 can introduce artifacts',
      { min: 0, max: 1 },
      0.1,
    ),
    floor_reflection: numberParam(
      'Strength of the floor reflection beneath the vehicle, 0 (none) to 1 (mirror)',
      { min: 0, max: 1 },
      0,
    ),
    glass_opacity: optionalIntegerParam(
      'Opacity of interior glass and windscreen, 0 (transparent) to 255 (opaque); absent keeps the glass as photographed',
      { min: 0, max: 255 },
    ),
    logo: publicUrlParam(
      'logo',
      'Dealership logo applied on the licence plate when a plate is detected; mutually exclusive with `plate_asset`',
    ),
    plate_asset: organisationAssetParam(
      'Organisation-owned licence-plate asset ID applied when a plate is detected; mutually exclusive with `logo`',
    ),
    color: optionalHexColorParam('Colour value: empty (none) or `#rrggbb`, tints the studio backdrop'),
    top_banner_url: publicUrlParam(
      'top_banner_url',
      'Top banner image; any banner forces a 16:9 render; mutually exclusive with `top_banner`',
    ),
    top_banner: organisationAssetParam(
      'Organisation-owned top banner asset ID; forces 16:9; mutually exclusive with `top_banner_url`',
    ),
    bottom_banner_url: publicUrlParam(
      'bottom_banner_url',
      'Bottom banner image; any banner forces a 16:9 render; mutually exclusive with `bottom_banner`',
    ),
    bottom_banner: organisationAssetParam(
      'Organisation-owned bottom banner asset ID; forces 16:9; mutually exclusive with `bottom_banner_url`',
    ),
    skip_background_removal: booleanParam(
      'Keep the original background and assemble the banners around the original image',
      false,
    ),
    position_from_pixels: booleanParam(
      'Detect the shot position from the pixels; when false, infer it from the position folder of the filename path (pixels decide when the path has none)',
      false,
    ),
    camera_roll: cameraRollParam(),
    reserved: describe(z.optional(z.string().check(z.maxLength(256))), 'Reserved; accepted and unused by the pipeline'),
    output_format: outputFormatParam(),
    return_cutout: booleanParam(
      'Also return the transparent cutout the image was composited from; `cutout` is null when false',
      false,
    ),
    traceability: describe(
      z.optional(z.string().check(z.maxLength(256))),
      'Opaque value of yours, returned unchanged on every result entry',
    ),
  })
  .check(
    z.superRefine((params, context) => {
      if (params.logo !== undefined && params.plate_asset !== undefined)
        context.addIssue(exclusive('logo', 'plate_asset'));
      if (params.top_banner_url !== undefined && params.top_banner !== undefined)
        context.addIssue(exclusive('top_banner_url', 'top_banner'));
      if (params.bottom_banner_url !== undefined && params.bottom_banner !== undefined)
        context.addIssue(exclusive('bottom_banner_url', 'bottom_banner'));
      const banner = bannerParamOf(params);
      if (banner && params.aspect_ratio !== undefined && params.aspect_ratio !== '16:9') {
        context.addIssue({
          code: 'custom',
          path: ['aspect_ratio'],
          message: `A banner (${banner}) forces aspect_ratio 16:9; omit aspect_ratio or send 16:9, not ${params.aspect_ratio}.`,
        });
      }
      if (banner && params.background === '') {
        context.addIssue({
          code: 'custom',
          path: [banner],
          message: `background "" returns the source image unchanged, so ${banner} cannot be applied; send skip_background_removal=true to assemble banners around the original image.`,
          params: { error_code: 'parameters_exclusive' },
        });
      }
    }),
  );
export type RenderBackgroundParams = z.output<typeof RenderBackgroundParams>;

function bannerParamOf(
  params: Pick<RenderBackgroundParams, 'top_banner_url' | 'top_banner' | 'bottom_banner_url' | 'bottom_banner'>,
): string | null {
  if (params.top_banner_url !== undefined) return 'top_banner_url';
  if (params.top_banner !== undefined) return 'top_banner';
  if (params.bottom_banner_url !== undefined) return 'bottom_banner_url';
  if (params.bottom_banner !== undefined) return 'bottom_banner';
  return null;
}

/** The ratio rendered: the one asked for, else `16:9` when a banner is set, else `4:3`. */
export function effectiveAspectRatio(params: RenderBackgroundParams): AspectRatio {
  return params.aspect_ratio ?? (bannerParamOf(params) ? '16:9' : '4:3');
}
