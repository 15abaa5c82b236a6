import * as z from 'zod/mini';
import { booleanParam, countryHintParam, integerParam, minConfidenceParam } from './fields.js';

export const PlateReadParams = z.strictObject({
  country: countryHintParam('Expected country of registration; improves reading of local formats'),
  return_crops: booleanParam('Return a cropped image of every plate read (`crop`); null when false', false),
  max_plates: integerParam('Most plates to report, most confident first', { min: 1, max: 20 }, 5),
  min_confidence: minConfidenceParam(0.3),
});
export type PlateReadParams = z.output<typeof PlateReadParams>;
