import * as z from 'zod/mini';
import { booleanParam, integerParam, minConfidenceParam } from './fields.js';

export const VehicleAnalyzeParams = z.strictObject({
  max_vehicles: integerParam('Most vehicles to report, largest first', { min: 1, max: 20 }, 5),
  include_image_quality: booleanParam(
    'Also grade the photo (sharpness, exposure, glare); `image_quality` is null when false',
    true,
  ),
  min_confidence: minConfidenceParam(0.3),
});
export type VehicleAnalyzeParams = z.output<typeof VehicleAnalyzeParams>;
