import * as z from 'zod/mini';
import { describe } from '../zod.js';
import { Confidence, NeedsReview, Ratio, SignedFile, VehicleColor } from './common.js';
import { BodyType, ExteriorViewpoint, Viewpoint } from './vocabulary.js';

const KeyFrame = z.object({
  viewpoint: Viewpoint,
  timestamp_seconds: describe(z.number().check(z.nonnegative()), 'Position of the frame in the video'),
  sharpness: describe(Ratio, '0 = fully blurred, 1 = tack sharp'),
  image: describe(z.nullable(SignedFile), 'The frame as a PNG; null when `return_frames` is false'),
});

export const VideoOnboardResult = z.object({
  duration_seconds: describe(
    z.number().check(z.positive()),
    'Length of the video; billing counts every started second',
  ),
  vehicle: describe(
    z.nullable(
      z.object({
        make: z.string(),
        model: z.string(),
        year: z.int(),
        body_type: BodyType,
        color: VehicleColor,
        confidence: Confidence,
      }),
    ),
    'Identified vehicle; null when `identify_vehicle` is false or none was recognised',
  ),
  plate: describe(
    z.nullable(z.object({ text: z.string(), confidence: Confidence })),
    'Licence plate read from the walkaround; null when none',
  ),
  frames: describe(z.array(KeyFrame), 'Key frames in video order, at most `frame_count`'),
  missing_viewpoints: describe(z.array(ExteriorViewpoint), 'Exterior viewpoints the walkaround did not cover'),
  needs_review: NeedsReview,
});
export type VideoOnboardResult = z.infer<typeof VideoOnboardResult>;
