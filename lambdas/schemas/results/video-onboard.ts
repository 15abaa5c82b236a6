import * as z from 'zod';
import { Confidence, NeedsReview, Ratio, SignedFile, VehicleColor } from './common.js';
import { BodyType, ExteriorViewpoint, Viewpoint } from './vocabulary.js';

const KeyFrame = z.object({
  viewpoint: Viewpoint,
  timestamp_seconds: z.number().nonnegative().describe('Position of the frame in the video'),
  sharpness: Ratio.describe('0 = fully blurred, 1 = tack sharp'),
  image: SignedFile.nullable().describe('The frame as a PNG; null when `return_frames` is false'),
});

export const VideoOnboardResult = z.object({
  duration_seconds: z.number().positive().describe('Length of the video; billing counts every started second'),
  vehicle: z
    .object({
      make: z.string(),
      model: z.string(),
      year: z.int(),
      body_type: BodyType,
      color: VehicleColor,
      confidence: Confidence,
    })
    .nullable()
    .describe('Identified vehicle; null when `identify_vehicle` is false or none was recognised'),
  plate: z.object({ text: z.string(), confidence: Confidence }).nullable().describe('Licence plate read from the walkaround; null when none'),
  frames: z.array(KeyFrame).describe('Key frames in video order, at most `frame_count`'),
  missing_viewpoints: z.array(ExteriorViewpoint).describe('Exterior viewpoints the walkaround did not cover'),
  needs_review: NeedsReview,
});
export type VideoOnboardResult = z.infer<typeof VideoOnboardResult>;
