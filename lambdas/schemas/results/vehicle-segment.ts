import * as z from 'zod/mini';
import { describe } from '../zod.js';
import { BoundingBox, Confidence, NeedsReview, Ratio, SignedFile } from './common.js';

export const VehicleSegmentResult = z.object({
  vehicle_found: describe(z.boolean(), 'false when no vehicle could be segmented; then every other field is empty'),
  confidence: z.nullable(Confidence),
  bbox: describe(z.nullable(BoundingBox), 'Box around the segmented vehicle'),
  coverage_ratio: describe(Ratio, 'Share of the image pixels that belong to the vehicle'),
  mask: describe(
    z.nullable(SignedFile),
    'Greyscale PNG the size of the input: 255 = vehicle, 0 = background; null when not requested or no vehicle',
  ),
  cutout: describe(
    z.nullable(SignedFile),
    'RGBA PNG of the vehicle on a transparent background; null when not requested or no vehicle',
  ),
  needs_review: NeedsReview,
});
export type VehicleSegmentResult = z.infer<typeof VehicleSegmentResult>;
