import * as z from 'zod/mini';
import { describe } from '../zod.js';
import { Confidence, NeedsReview } from './common.js';
import { BodyType } from './vocabulary.js';

const Candidate = z.object({
  make: describe(z.string(), 'Manufacturer, e.g. `Volkswagen`'),
  model: describe(z.string(), 'Model, e.g. `Golf`'),
  generation: describe(z.nullable(z.string()), 'Generation or platform code, e.g. `Mk8`'),
  year_from: describe(z.int(), 'First model year the prediction covers'),
  year_to: describe(z.int(), 'Last model year the prediction covers'),
  body_type: BodyType,
  confidence: Confidence,
});

export const VehicleIdentifyResult = z.object({
  candidates: describe(
    z.array(Candidate),
    'Candidate identifications, best first, at most `top_k`; empty when no vehicle is recognised',
  ),
  needs_review: NeedsReview,
});
export type VehicleIdentifyResult = z.infer<typeof VehicleIdentifyResult>;
