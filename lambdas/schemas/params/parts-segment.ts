import * as z from 'zod';
import { minConfidenceParam } from './fields.js';

export const PartsSegmentParams = z
  .object({
    output: z
      .enum(['masks', 'label_map', 'both'])
      .default('both')
      .describe('Files to return: one greyscale mask per part (`masks`), one greyscale `label_map` whose pixel values are `label_value`s, or both'),
    min_confidence: minConfidenceParam(0.3),
  })
  .strict();
export type PartsSegmentParams = z.output<typeof PartsSegmentParams>;
