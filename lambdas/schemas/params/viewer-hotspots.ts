import * as z from 'zod';
import { booleanParam, integerParam, minConfidenceParam } from './fields.js';

export const ViewerHotspotsParams = z
  .object({
    include_damages: booleanParam('Anchor hotspots on detected damage', true),
    include_features: booleanParam('Anchor hotspots on selling features (alloy wheels, panoramic roof, ...)', true),
    max_hotspots: integerParam('Most hotspots to place', { min: 1, max: 50 }, 12),
    min_confidence: minConfidenceParam(0.4),
  })
  .strict();
export type ViewerHotspotsParams = z.output<typeof ViewerHotspotsParams>;
