import * as z from 'zod/mini';
import { describe, meta } from '../zod.js';
import { ColorName } from './vocabulary.js';

/**
 * Building blocks shared by the endpoint result schemas. These describe the PUBLIC
 * shape (what `GET /v1/jobs/{id}` returns), so produced files appear as SignedFile.
 */

/** A file the job produced, as clients see it: a short-lived signed download address. */
export const SignedFile = meta(
  z.object({
    url: describe(z.url(), 'Signed download address; it expires, so download and re-host what you keep'),
    expires_at: describe(
      z.int(),
      'Epoch seconds (UTC) after which `url` stops working; read the job again for a fresh one',
    ),
    content_type: describe(z.string(), 'MIME type of the bytes behind `url`'),
    width: describe(z.nullable(z.int()), 'Pixel width of an image or video; null for other files'),
    height: describe(z.nullable(z.int()), 'Pixel height of an image or video; null for other files'),
    size_bytes: describe(z.int().check(z.nonnegative()), 'Size of the file in bytes'),
  }),
  { id: 'SignedFile', description: 'A produced file, served from a signed URL that expires' },
);
export type SignedFile = z.infer<typeof SignedFile>;

export const Ratio = z.number().check(z.minimum(0), z.maximum(1));

export const Confidence = meta(Ratio, { id: 'Confidence', description: 'Model confidence, 0 to 1' });

export const NeedsReview = meta(z.boolean(), {
  id: 'NeedsReview',
  description:
    'true when the model is unsure about its answer (a reported confidence below 0.5); route the case to a person',
});

/** Normalised rather than pixel coordinates so results do not depend on the input resolution. */
export const BoundingBox = meta(
  z.object({
    x: describe(Ratio, 'Left edge, as a fraction of the image width'),
    y: describe(Ratio, 'Top edge, as a fraction of the image height'),
    width: describe(Ratio, 'Box width, as a fraction of the image width'),
    height: describe(Ratio, 'Box height, as a fraction of the image height'),
  }),
  { id: 'BoundingBox', description: 'Axis-aligned box normalised to the image (0 to 1, origin top-left)' },
);
export type BoundingBox = z.infer<typeof BoundingBox>;

export const VehicleColor = describe(
  z.object({
    name: ColorName,
    hex: describe(z.string().check(z.regex(/^#[0-9A-F]{6}$/)), 'Representative sRGB colour, `#RRGGBB`'),
  }),
  'Paint colour',
);

/** Money follows Stripe: integers in the currency's minor unit (cents), never floats. */
export const MinorAmount = describe(z.int().check(z.nonnegative()), "Amount in the currency's minor unit (e.g. cents)");

export const MoneyRange = describe(
  z.object({
    low: describe(MinorAmount, 'Lower bound, minor units'),
    mid: describe(MinorAmount, 'Most likely value, minor units'),
    high: describe(MinorAmount, 'Upper bound, minor units'),
  }),
  'Price range in minor units',
);

/** Multi-asset endpoints echo these on every entry so clients can match outputs to inputs. */
export const AssetIndex = describe(
  z.int().check(z.nonnegative()),
  '0-based position of the input asset in the request',
);
export const AssetFilename = describe(
  z.nullable(z.string()),
  'Filename of the input asset as uploaded; null when unknown',
);
