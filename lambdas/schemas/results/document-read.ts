import * as z from 'zod/mini';
import { DOCUMENT_TYPES } from '../params/document-read.js';
import { describe } from '../zod.js';
import { BoundingBox, Confidence, NeedsReview } from './common.js';

const DocumentField = z.object({
  key: describe(
    z.string().check(z.regex(/^[a-z0-9_]+$/)),
    'Stable snake_case field name, e.g. `vin`, `first_registration_date`',
  ),
  label: describe(z.string(), 'Human-readable label'),
  value: describe(z.string(), 'Value as text; dates are `YYYY-MM-DD`, amounts are plain decimals'),
  confidence: Confidence,
  page: describe(z.int().check(z.minimum(1)), '1-based page the value was read from'),
  bbox: BoundingBox,
});

export const DocumentReadResult = z.object({
  document_type: describe(
    z.enum([...DOCUMENT_TYPES, 'unknown']),
    'Kind of document; `unknown` when it could not be classified',
  ),
  country: describe(
    z.nullable(z.string().check(z.regex(/^[A-Z]{2}$/))),
    'Issuing country, ISO 3166-1 alpha-2; null when unknown',
  ),
  page_count: describe(z.int().check(z.minimum(1)), 'Pages in the input'),
  fields: describe(z.array(DocumentField), 'Extracted fields; empty when nothing was read'),
  raw_text: describe(z.nullable(z.string()), 'Full recognised text; null unless `return_raw_text` is true'),
  needs_review: NeedsReview,
});
export type DocumentReadResult = z.infer<typeof DocumentReadResult>;
