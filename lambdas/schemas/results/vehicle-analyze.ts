import * as z from 'zod/mini';
import { describe } from '../zod.js';
import { BoundingBox, Confidence, NeedsReview, Ratio, VehicleColor } from './common.js';
import { BodyType, Viewpoint } from './vocabulary.js';

const AnalyzedVehicle = z.object({
  bbox: BoundingBox,
  confidence: Confidence,
  body_type: BodyType,
  color: VehicleColor,
  viewpoint: Viewpoint,
  occlusion_ratio: describe(Ratio, 'Share of the vehicle hidden by other objects or cut off by the frame'),
});

const ImageQuality = describe(
  z.object({
    sharpness: describe(Ratio, '0 = fully blurred, 1 = tack sharp'),
    brightness: describe(Ratio, 'Mean luminance, 0 = black, 1 = white'),
    exposure: describe(z.enum(['under', 'ok', 'over']), 'Exposure verdict'),
    glare: describe(z.boolean(), 'Reflections or sun glare hide parts of the vehicle'),
    usable: describe(z.boolean(), 'Good enough for the damage and parts endpoints'),
  }),
  'Photo quality grades',
);

export const VehicleAnalyzeResult = z.object({
  vehicles: describe(z.array(AnalyzedVehicle), 'Vehicles found, largest first; empty when none is visible'),
  primary_vehicle_index: describe(
    z.nullable(z.int().check(z.nonnegative())),
    'Index in `vehicles` of the main subject; null when there is none',
  ),
  scene: describe(z.enum(['outdoor', 'indoor', 'studio']), 'Setting of the photo'),
  image_quality: describe(z.nullable(ImageQuality), 'Null when `include_image_quality` is false'),
  needs_review: NeedsReview,
});
export type VehicleAnalyzeResult = z.infer<typeof VehicleAnalyzeResult>;
