import * as z from 'zod/mini';
import { describe } from '../zod.js';
import { integerParam } from './fields.js';
import { aspectRatioParam, backgroundParam, outputFormatParam } from './render-fields.js';

export const Render360Params = z.strictObject({
  direction: describe(
    z._default(z.enum(['clockwise', 'counterclockwise']), 'clockwise'),
    'Direction the camera travelled around the vehicle between consecutive input images',
  ),
  start_angle: integerParam(
    'Angle in degrees of the first input image (0 = front, 90 = right side)',
    { min: 0, max: 359 },
    0,
  ),
  background: backgroundParam(),
  aspect_ratio: aspectRatioParam(),
  output_format: outputFormatParam(),
});
export type Render360Params = z.output<typeof Render360Params>;
