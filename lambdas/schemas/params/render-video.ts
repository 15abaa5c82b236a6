import * as z from 'zod';
import { integerParam } from './fields.js';

export const VIDEO_ASPECT_RATIOS = ['16:9', '9:16', '1:1'] as const;

export const RenderVideoParams = z
  .object({
    duration_seconds: integerParam('Length of the ad video in seconds', { min: 6, max: 60 }, 15),
    aspect_ratio: z.enum(VIDEO_ASPECT_RATIOS).default('16:9').describe('Video frame: landscape, portrait (stories) or square'),
    music: z.enum(['none', 'upbeat', 'calm', 'cinematic']).default('upbeat').describe('Soundtrack mood'),
    title: z.string().trim().min(1).max(80).optional().describe('Headline shown over the opening scene'),
  })
  .strict();
export type RenderVideoParams = z.output<typeof RenderVideoParams>;
