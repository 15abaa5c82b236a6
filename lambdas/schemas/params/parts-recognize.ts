import * as z from 'zod';
import { integerParam, minConfidenceParam } from './fields.js';

export const PartsRecognizeParams = z
  .object({
    min_confidence: minConfidenceParam(0.3),
    max_parts: integerParam('Most parts to report, most confident first', { min: 1, max: 100 }, 50),
  })
  .strict();
export type PartsRecognizeParams = z.output<typeof PartsRecognizeParams>;
