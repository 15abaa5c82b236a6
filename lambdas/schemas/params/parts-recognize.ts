import * as z from 'zod/mini';
import { integerParam, minConfidenceParam } from './fields.js';

export const PartsRecognizeParams = z.strictObject({
  min_confidence: minConfidenceParam(0.3),
  max_parts: integerParam('Most parts to report, most confident first', { min: 1, max: 100 }, 50),
});
export type PartsRecognizeParams = z.output<typeof PartsRecognizeParams>;
