import * as z from 'zod';
import { integerParam } from './fields.js';
import { aspectRatioParam, backgroundParam, outputFormatParam } from './render-fields.js';

export const Render360Params = z
  .object({
    direction: z.enum(['clockwise', 'counterclockwise']).default('clockwise').describe('Direction the camera travelled around the vehicle between consecutive input images'),
    start_angle: integerParam('Angle in degrees of the first input image (0 = front, 90 = right side)', { min: 0, max: 359 }, 0),
    background: backgroundParam(),
    aspect_ratio: aspectRatioParam(),
    output_format: outputFormatParam(),
  })
  .strict();
export type Render360Params = z.output<typeof Render360Params>;
