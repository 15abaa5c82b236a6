import * as z from 'zod/mini';
import { booleanParam, integerParam } from './fields.js';

export const VideoOnboardParams = z.strictObject({
  frame_count: integerParam('Most key frames to extract, one per viewpoint at best', { min: 4, max: 24 }, 8),
  return_frames: booleanParam('Return the extracted key frames as images; `image` is null when false', true),
  identify_vehicle: booleanParam('Identify make, model and year; `vehicle` is null when false', true),
});
export type VideoOnboardParams = z.output<typeof VideoOnboardParams>;
