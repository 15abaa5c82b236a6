import * as z from 'zod';
import { DOCUMENT_TYPES } from '../params/document-read.js';
import { BoundingBox, Confidence, NeedsReview } from './common.js';

const DocumentField = z.object({
  key: z
    .string()
    .regex(/^[a-z0-9_]+$/)
    .describe('Stable snake_case field name, e.g. `vin`, `first_registration_date`'),
  label: z.string().describe('Human-readable label'),
  value: z.string().describe('Value as text; dates are `YYYY-MM-DD`, amounts are plain decimals'),
  confidence: Confidence,
  page: z.int().min(1).describe('1-based page the value was read from'),
  bbox: BoundingBox,
});

export const DocumentReadResult = z.object({
  document_type: z.enum([...DOCUMENT_TYPES, 'unknown']).describe('Kind of document; `unknown` when it could not be classified'),
  country: z
    .string()
    .regex(/^[A-Z]{2}$/)
    .nullable()
    .describe('Issuing country, ISO 3166-1 alpha-2; null when unknown'),
  page_count: z.int().min(1).describe('Pages in the input'),
  fields: z.array(DocumentField).describe('Extracted fields; empty when nothing was read'),
  raw_text: z.string().nullable().describe('Full recognised text; null unless `return_raw_text` is true'),
  needs_review: NeedsReview,
});
export type DocumentReadResult = z.infer<typeof DocumentReadResult>;
