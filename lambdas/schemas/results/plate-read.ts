import * as z from 'zod';
import { BoundingBox, Confidence, NeedsReview, SignedFile } from './common.js';

const ReadPlate = z.object({
  text: z.string().describe('Plate text as printed, with its separators, e.g. `M AB 1234`'),
  normalized: z
    .string()
    .regex(/^[A-Z0-9]+$/)
    .describe('Text reduced to upper-case letters and digits, for matching'),
  confidence: Confidence,
  bbox: BoundingBox,
  region: z
    .object({
      country: z
        .string()
        .regex(/^[A-Z]{2}$/)
        .nullable()
        .describe('Country of registration, ISO 3166-1 alpha-2; null when unknown'),
      subdivision: z.string().nullable().describe('State or district where the format shows it (e.g. `CA`, `M` for Munich); null otherwise'),
    })
    .describe('Where the plate was issued'),
  region_confidence: Confidence.describe('Confidence in `region`'),
  crop: SignedFile.nullable().describe('PNG crop of the plate; null unless `return_crops` is true'),
});

export const PlateReadResult = z.object({
  plates: z.array(ReadPlate).describe('Plates read, most confident first; empty when none is found'),
  needs_review: NeedsReview,
});
export type PlateReadResult = z.infer<typeof PlateReadResult>;
