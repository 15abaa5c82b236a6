import * as z from 'zod/mini';
import { VIDEO_ASPECT_RATIOS } from '../params/render-video.js';
import { describe } from '../zod.js';
import { AssetFilename, AssetIndex, SignedFile } from './common.js';

const Scene = z.object({
  index: AssetIndex,
  filename: AssetFilename,
  start_seconds: describe(z.number().check(z.nonnegative()), 'Where the scene built from this image starts'),
  duration_seconds: describe(z.number().check(z.positive()), 'How long the scene lasts'),
  transition: describe(z.enum(['cut', 'fade', 'slide', 'zoom']), 'Transition into the scene'),
});

export const RenderVideoResult = z.object({
  video: describe(SignedFile, 'The ad video (MP4 in live mode; an animated GIF in test mode, as `content_type` says)'),
  poster: describe(SignedFile, 'PNG still for the video player'),
  duration_seconds: z.number().check(z.positive()),
  aspect_ratio: z.enum(VIDEO_ASPECT_RATIOS),
  music: z.enum(['none', 'upbeat', 'calm', 'cinematic']),
  scenes: describe(z.array(Scene), 'One scene per input image, in input order'),
});
export type RenderVideoResult = z.infer<typeof RenderVideoResult>;
