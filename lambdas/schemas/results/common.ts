import * as z from 'zod';
import { ColorName } from './vocabulary.js';

/**
 * Building blocks shared by the endpoint result schemas. These describe the PUBLIC
 * shape (what `GET /v1/jobs/{id}` returns), so produced files appear as SignedFile.
 */

/** A file the job produced, as clients see it: a short-lived signed download address. */
export const SignedFile = z
  .object({
    url: z.url().describe('Signed download address; it expires, so download and re-host what you keep'),
    expires_at: z.int().describe('Epoch seconds (UTC) after which `url` stops working; read the job again for a fresh one'),
    content_type: z.string().describe('MIME type of the bytes behind `url`'),
    width: z.int().nullable().describe('Pixel width of an image or video; null for other files'),
    height: z.int().nullable().describe('Pixel height of an image or video; null for other files'),
    size_bytes: z.int().nonnegative().describe('Size of the file in bytes'),
  })
  .describe('A produced file, served from a signed URL that expires');
export type SignedFile = z.infer<typeof SignedFile>;

export const Ratio = z.number().min(0).max(1);

export const Confidence = Ratio.describe('Model confidence, 0 to 1');

export const NeedsReview = z.boolean().describe('true when the model is unsure about its answer (a reported confidence below 0.5); route the case to a person');

/** Normalised rather than pixel coordinates so results do not depend on the input resolution. */
export const BoundingBox = z
  .object({
    x: Ratio.describe('Left edge, as a fraction of the image width'),
    y: Ratio.describe('Top edge, as a fraction of the image height'),
    width: Ratio.describe('Box width, as a fraction of the image width'),
    height: Ratio.describe('Box height, as a fraction of the image height'),
  })
  .describe('Axis-aligned box normalised to the image (0 to 1, origin top-left)');
export type BoundingBox = z.infer<typeof BoundingBox>;

export const VehicleColor = z
  .object({
    name: ColorName,
    hex: z
      .string()
      .regex(/^#[0-9A-F]{6}$/)
      .describe('Representative sRGB colour, `#RRGGBB`'),
  })
  .describe('Paint colour');

/** Money follows Stripe: integers in the currency's minor unit (cents), never floats. */
export const MinorAmount = z.int().nonnegative().describe("Amount in the currency's minor unit (e.g. cents)");

export const MoneyRange = z
  .object({
    low: MinorAmount.describe('Lower bound, minor units'),
    mid: MinorAmount.describe('Most likely value, minor units'),
    high: MinorAmount.describe('Upper bound, minor units'),
  })
  .describe('Price range in minor units');

/** Multi-asset endpoints echo these on every entry so clients can match outputs to inputs. */
export const AssetIndex = z.int().nonnegative().describe('0-based position of the input asset in the request');
export const AssetFilename = z.string().nullable().describe('Filename of the input asset as uploaded; null when unknown');
