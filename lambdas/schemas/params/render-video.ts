import * as z from 'zod/mini';
import { describe } from '../zod.js';
import { integerParam } from './fields.js';

export const VIDEO_ASPECT_RATIOS = ['16:9', '9:16', '1:1'] as const;

export const RenderVideoParams = z.strictObject({
  duration_seconds: integerParam('Length of the ad video in seconds', { min: 6, max: 60 }, 15),
  aspect_ratio: describe(
    z._default(z.enum(VIDEO_ASPECT_RATIOS), '16:9'),
    'Video frame: landscape, portrait (stories) or square',
  ),
  music: describe(z._default(z.enum(['none', 'upbeat', 'calm', 'cinematic']), 'upbeat'), 'Soundtrack mood'),
  title: describe(
    z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(80))),
    'Headline shown over the opening scene',
  ),
});
export type RenderVideoParams = z.output<typeof RenderVideoParams>;
