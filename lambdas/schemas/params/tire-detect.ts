import * as z from 'zod/mini';
import { minConfidenceParam, numberParam } from './fields.js';

export const TireDetectParams = z.strictObject({
  legal_minimum_mm: numberParam(
    'Legal minimum tread depth in mm for `below_legal_minimum` (1.6 in the EU)',
    { min: 0.5, max: 5 },
    1.6,
  ),
  min_confidence: minConfidenceParam(0.3),
});
export type TireDetectParams = z.output<typeof TireDetectParams>;
