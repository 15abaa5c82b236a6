import * as z from 'zod';
import { AssetFilename, AssetIndex, SignedFile } from './common.js';
import { AspectRatio, OutputFormat } from './vocabulary.js';

const SpinFrame = z.object({
  index: AssetIndex,
  filename: AssetFilename,
  angle_degrees: z.number().min(0).lt(360).describe('Camera angle around the vehicle: 0 = front, 90 = right side'),
  image: SignedFile.describe('The frame, re-backgrounded and aligned to the spin axis'),
});

export const Render360Result = z.object({
  frame_count: z.int().min(1).describe('Frames in the spin (one per input image)'),
  direction: z.enum(['clockwise', 'counterclockwise']),
  aspect_ratio: AspectRatio,
  output_format: OutputFormat.describe('Format requested; `content_type` of each file is the format delivered'),
  frames: z.array(SpinFrame).describe('One entry per input image, in input order'),
  preview: SignedFile.describe('Animated GIF preview of the spin'),
});
export type Render360Result = z.infer<typeof Render360Result>;
