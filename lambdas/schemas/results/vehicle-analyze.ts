import * as z from 'zod';
import { BoundingBox, Confidence, NeedsReview, Ratio, VehicleColor } from './common.js';
import { BodyType, Viewpoint } from './vocabulary.js';

const AnalyzedVehicle = z.object({
  bbox: BoundingBox,
  confidence: Confidence,
  body_type: BodyType,
  color: VehicleColor,
  viewpoint: Viewpoint,
  occlusion_ratio: Ratio.describe('Share of the vehicle hidden by other objects or cut off by the frame'),
});

const ImageQuality = z
  .object({
    sharpness: Ratio.describe('0 = fully blurred, 1 = tack sharp'),
    brightness: Ratio.describe('Mean luminance, 0 = black, 1 = white'),
    exposure: z.enum(['under', 'ok', 'over']).describe('Exposure verdict'),
    glare: z.boolean().describe('Reflections or sun glare hide parts of the vehicle'),
    usable: z.boolean().describe('Good enough for the damage and parts endpoints'),
  })
  .describe('Photo quality grades');

export const VehicleAnalyzeResult = z.object({
  vehicles: z.array(AnalyzedVehicle).describe('Vehicles found, largest first; empty when none is visible'),
  primary_vehicle_index: z.int().nonnegative().nullable().describe('Index in `vehicles` of the main subject; null when there is none'),
  scene: z.enum(['outdoor', 'indoor', 'studio']).describe('Setting of the photo'),
  image_quality: ImageQuality.nullable().describe('Null when `include_image_quality` is false'),
  needs_review: NeedsReview,
});
export type VehicleAnalyzeResult = z.infer<typeof VehicleAnalyzeResult>;
