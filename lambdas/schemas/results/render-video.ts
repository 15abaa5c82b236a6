import * as z from 'zod';
import { VIDEO_ASPECT_RATIOS } from '../params/render-video.js';
import { AssetFilename, AssetIndex, SignedFile } from './common.js';

const Scene = z.object({
  index: AssetIndex,
  filename: AssetFilename,
  start_seconds: z.number().nonnegative().describe('Where the scene built from this image starts'),
  duration_seconds: z.number().positive().describe('How long the scene lasts'),
  transition: z.enum(['cut', 'fade', 'slide', 'zoom']).describe('Transition into the scene'),
});

export const RenderVideoResult = z.object({
  video: SignedFile.describe('The ad video (MP4 in live mode; an animated GIF in test mode, as `content_type` says)'),
  poster: SignedFile.describe('PNG still for the video player'),
  duration_seconds: z.number().positive(),
  aspect_ratio: z.enum(VIDEO_ASPECT_RATIOS),
  music: z.enum(['none', 'upbeat', 'calm', 'cinematic']),
  scenes: z.array(Scene).describe('One scene per input image, in input order'),
});
export type RenderVideoResult = z.infer<typeof RenderVideoResult>;
