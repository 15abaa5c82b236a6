import * as z from 'zod/mini';
import { describe } from '../zod.js';
import { AssetFilename, AssetIndex, SignedFile } from './common.js';
import { AspectRatio, OutputFormat, RenderCategory } from './vocabulary.js';

const RenderedImage = z.object({
  index: AssetIndex,
  filename: AssetFilename,
  status: describe(
    z.enum(['rendered', 'background_kept', 'passthrough']),
    '`rendered`: background replaced; `background_kept`: `skip_background_removal` kept the original background (banners, enhancement and plate overlay still applied); `passthrough`: `background` was an empty string and `image` is the source file, unchanged',
  ),
  category: describe(RenderCategory, 'Kind of shot, given by `category` or detected'),
  position_source: describe(
    z.enum(['parameter', 'path', 'pixels']),
    'What decided `category`: the `category` parameter, a position folder of the filename path, or the pixels',
  ),
  renderer: describe(z.enum(['exterior', 'interior']), 'Renderer that produced the image'),
  background: describe(z.string(), 'Background applied to exterior shots (empty string for passthrough)'),
  interior_set: describe(
    z.nullable(z.string()),
    'Interior set used for this non-exterior shot; null for exterior shots and when the background was not replaced',
  ),
  fallback_color_used: describe(
    z.boolean(),
    'true when `interior_set` had no image for this category and `fallback_color` was painted instead',
  ),
  aspect_ratio: describe(
    z.nullable(AspectRatio),
    'Aspect ratio rendered (16:9 whenever a banner is set); null for passthrough, which returns the source as it is',
  ),
  output_format: describe(OutputFormat, 'Format requested; `image.content_type` is the format delivered'),
  enhancement_mode: describe(
    z.nullable(z.enum(['fine_grain', 'GAN', 'None'])),
    'Enhancement applied; null for passthrough',
  ),
  camera_roll: describe(
    z.nullable(z.number()),
    'Roll correction applied, in degrees: the `camera_roll` given, or the one detected when it was null; null for passthrough',
  ),
  plate_overlay: describe(
    z.nullable(z.enum(['logo', 'plate_asset'])),
    'What was applied on a detected licence plate; null when neither `logo` nor `plate_asset` was given, or no plate was detected',
  ),
  banners: describe(z.object({ top: z.boolean(), bottom: z.boolean() }), 'Banners assembled around the image'),
  image: describe(SignedFile, 'The re-backgrounded image (for passthrough: the source file as uploaded)'),
  cutout: describe(
    z.nullable(SignedFile),
    'Transparent PNG cutout the image was composited from; null unless `return_cutout` is true and the background was removed',
  ),
  traceability: describe(z.nullable(z.string()), 'Your `traceability` value, unchanged; null when not given'),
});

export const RenderBackgroundResult = z.object({
  images: describe(z.array(RenderedImage), 'One entry per input image, in input order'),
});
export type RenderBackgroundResult = z.infer<typeof RenderBackgroundResult>;
