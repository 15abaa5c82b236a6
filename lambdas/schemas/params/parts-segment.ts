import * as z from 'zod/mini';
import { describe } from '../zod.js';
import { minConfidenceParam } from './fields.js';

export const PartsSegmentParams = z.strictObject({
  output: describe(
    z._default(z.enum(['masks', 'label_map', 'both']), 'both'),
    'Files to return: one greyscale mask per part (`masks`), one greyscale `label_map` whose pixel values are `label_value`s, or both',
  ),
  min_confidence: minConfidenceParam(0.3),
});
export type PartsSegmentParams = z.output<typeof PartsSegmentParams>;
