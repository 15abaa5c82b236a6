import * as z from 'zod/mini';
import { describe } from '../zod.js';
import { AssetFilename, AssetIndex, SignedFile } from './common.js';
import { AspectRatio, OutputFormat } from './vocabulary.js';

const SpinFrame = z.object({
  index: AssetIndex,
  filename: AssetFilename,
  angle_degrees: describe(
    z.number().check(z.minimum(0), z.lt(360)),
    'Camera angle around the vehicle: 0 = front, 90 = right side',
  ),
  image: describe(SignedFile, 'The frame, re-backgrounded and aligned to the spin axis'),
});

export const Render360Result = z.object({
  frame_count: describe(z.int().check(z.minimum(1)), 'Frames in the spin (one per input image)'),
  direction: z.enum(['clockwise', 'counterclockwise']),
  aspect_ratio: AspectRatio,
  output_format: describe(OutputFormat, 'Format requested; `content_type` of each file is the format delivered'),
  frames: describe(z.array(SpinFrame), 'One entry per input image, in input order'),
  preview: describe(SignedFile, 'Animated GIF preview of the spin'),
});
export type Render360Result = z.infer<typeof Render360Result>;
