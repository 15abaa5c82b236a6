import * as z from 'zod/mini';
import { booleanParam, minConfidenceParam } from './fields.js';

export const TireReadParams = z.strictObject({
  decode_dot: booleanParam(
    'Decode the manufacture week and year from the DOT date code; `manufactured` is null when false',
    true,
  ),
  min_confidence: minConfidenceParam(0.3),
});
export type TireReadParams = z.output<typeof TireReadParams>;
