import * as z from 'zod/mini';
import { booleanParam, integerParam, minConfidenceParam } from './fields.js';

export const ViewerHotspotsParams = z.strictObject({
  include_damages: booleanParam('Anchor hotspots on detected damage', true),
  include_features: booleanParam('Anchor hotspots on selling features (alloy wheels, panoramic roof, ...)', true),
  max_hotspots: integerParam('Most hotspots to place', { min: 1, max: 50 }, 12),
  min_confidence: minConfidenceParam(0.4),
});
export type ViewerHotspotsParams = z.output<typeof ViewerHotspotsParams>;
