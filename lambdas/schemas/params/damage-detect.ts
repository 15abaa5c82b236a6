import * as z from 'zod/mini';
import { booleanParam, integerParam, minConfidenceParam } from './fields.js';

export const DamageDetectParams = z.strictObject({
  min_confidence: minConfidenceParam(0.4),
  include_minor: booleanParam('Also report small cosmetic damage (under 10 cm²)', true),
  max_damages: integerParam('Most damages to report, most confident first', { min: 1, max: 100 }, 30),
});
export type DamageDetectParams = z.output<typeof DamageDetectParams>;
