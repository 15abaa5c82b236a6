import * as z from 'zod';
import { BoundingBox, Confidence, NeedsReview, Ratio, SignedFile } from './common.js';

export const VehicleSegmentResult = z.object({
  vehicle_found: z.boolean().describe('false when no vehicle could be segmented; then every other field is empty'),
  confidence: Confidence.nullable(),
  bbox: BoundingBox.nullable().describe('Box around the segmented vehicle'),
  coverage_ratio: Ratio.describe('Share of the image pixels that belong to the vehicle'),
  mask: SignedFile.nullable().describe('Greyscale PNG the size of the input: 255 = vehicle, 0 = background; null when not requested or no vehicle'),
  cutout: SignedFile.nullable().describe('RGBA PNG of the vehicle on a transparent background; null when not requested or no vehicle'),
  needs_review: NeedsReview,
});
export type VehicleSegmentResult = z.infer<typeof VehicleSegmentResult>;
