import * as z from 'zod/mini';
import { booleanParam, minConfidenceParam } from './fields.js';

export const PartsDecomposeParams = z.strictObject({
  return_layers: booleanParam('Return one transparent PNG layer per part; `layer` is null when false', true),
  min_confidence: minConfidenceParam(0.3),
});
export type PartsDecomposeParams = z.output<typeof PartsDecomposeParams>;
