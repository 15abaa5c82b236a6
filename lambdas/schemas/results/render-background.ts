import * as z from 'zod';
import { AssetFilename, AssetIndex, SignedFile } from './common.js';
import { AspectRatio, OutputFormat, RenderCategory } from './vocabulary.js';

const RenderedImage = z.object({
  index: AssetIndex,
  filename: AssetFilename,
  status: z
    .enum(['rendered', 'background_kept', 'passthrough'])
    .describe(
      '`rendered`: background replaced; `background_kept`: `skip_background_removal` kept the original background (banners, enhancement and plate overlay still applied); `passthrough`: `background` was an empty string and `image` is the source file, unchanged',
    ),
  category: RenderCategory.describe('Kind of shot, given by `category` or detected'),
  position_source: z.enum(['parameter', 'path', 'pixels']).describe('What decided `category`: the `category` parameter, a position folder of the filename path, or the pixels'),
  renderer: z.enum(['exterior', 'interior']).describe('Renderer that produced the image'),
  background: z.string().describe('Background applied to exterior shots (empty string for passthrough)'),
  interior_set: z.string().nullable().describe('Interior set used for this non-exterior shot; null for exterior shots and when the background was not replaced'),
  fallback_color_used: z.boolean().describe('true when `interior_set` had no image for this category and `fallback_color` was painted instead'),
  aspect_ratio: AspectRatio.nullable().describe('Aspect ratio rendered (16:9 whenever a banner is set); null for passthrough, which returns the source as it is'),
  output_format: OutputFormat.describe('Format requested; `image.content_type` is the format delivered'),
  enhancement_mode: z.enum(['fine_grain', 'GAN', 'None']).nullable().describe('Enhancement applied; null for passthrough'),
  camera_roll: z.number().nullable().describe('Roll correction applied, in degrees: the `camera_roll` given, or the one detected when it was null; null for passthrough'),
  plate_overlay: z
    .enum(['logo', 'plate_asset'])
    .nullable()
    .describe('What was applied on a detected licence plate; null when neither `logo` nor `plate_asset` was given, or no plate was detected'),
  banners: z.object({ top: z.boolean(), bottom: z.boolean() }).describe('Banners assembled around the image'),
  image: SignedFile.describe('The re-backgrounded image (for passthrough: the source file as uploaded)'),
  cutout: SignedFile.nullable().describe('Transparent PNG cutout the image was composited from; null unless `return_cutout` is true and the background was removed'),
  traceability: z.string().nullable().describe('Your `traceability` value, unchanged; null when not given'),
});

export const RenderBackgroundResult = z.object({
  images: z.array(RenderedImage).describe('One entry per input image, in input order'),
});
export type RenderBackgroundResult = z.infer<typeof RenderBackgroundResult>;
