import * as z from 'zod/mini';
import { describe } from '../zod.js';
import { BoundingBox, Confidence, NeedsReview, SignedFile } from './common.js';

const ReadPlate = z.object({
  text: describe(z.string(), 'Plate text as printed, with its separators, e.g. `M AB 1234`'),
  normalized: describe(
    z.string().check(z.regex(/^[A-Z0-9]+$/)),
    'Text reduced to upper-case letters and digits, for matching',
  ),
  confidence: Confidence,
  bbox: BoundingBox,
  region: describe(
    z.object({
      country: describe(
        z.nullable(z.string().check(z.regex(/^[A-Z]{2}$/))),
        'Country of registration, ISO 3166-1 alpha-2; null when unknown',
      ),
      subdivision: describe(
        z.nullable(z.string()),
        'State or district where the format shows it (e.g. `CA`, `M` for Munich); null otherwise',
      ),
    }),
    'Where the plate was issued',
  ),
  region_confidence: describe(Confidence, 'Confidence in `region`'),
  crop: describe(z.nullable(SignedFile), 'PNG crop of the plate; null unless `return_crops` is true'),
});

export const PlateReadResult = z.object({
  plates: describe(z.array(ReadPlate), 'Plates read, most confident first; empty when none is found'),
  needs_review: NeedsReview,
});
export type PlateReadResult = z.infer<typeof PlateReadResult>;
