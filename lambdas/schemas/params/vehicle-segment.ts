import * as z from 'zod';
import { booleanParam } from './fields.js';

export const VehicleSegmentParams = z
  .object({
    output: z.enum(['mask', 'cutout', 'both']).default('both').describe('Files to return: a greyscale `mask` (255 = vehicle), a transparent-background `cutout`, or both'),
    refine_edges: booleanParam('Anti-alias the mask border instead of a hard 0/255 edge', true),
  })
  .strict();
export type VehicleSegmentParams = z.output<typeof VehicleSegmentParams>;
