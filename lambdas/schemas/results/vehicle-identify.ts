import * as z from 'zod';
import { Confidence, NeedsReview } from './common.js';
import { BodyType } from './vocabulary.js';

const Candidate = z.object({
  make: z.string().describe('Manufacturer, e.g. `Volkswagen`'),
  model: z.string().describe('Model, e.g. `Golf`'),
  generation: z.string().nullable().describe('Generation or platform code, e.g. `Mk8`'),
  year_from: z.int().describe('First model year the prediction covers'),
  year_to: z.int().describe('Last model year the prediction covers'),
  body_type: BodyType,
  confidence: Confidence,
});

export const VehicleIdentifyResult = z.object({
  candidates: z.array(Candidate).describe('Candidate identifications, best first, at most `top_k`; empty when no vehicle is recognised'),
  needs_review: NeedsReview,
});
export type VehicleIdentifyResult = z.infer<typeof VehicleIdentifyResult>;
