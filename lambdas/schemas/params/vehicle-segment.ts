import * as z from 'zod/mini';
import { describe } from '../zod.js';
import { booleanParam } from './fields.js';

export const VehicleSegmentParams = z.strictObject({
  output: describe(
    z._default(z.enum(['mask', 'cutout', 'both']), 'both'),
    'Files to return: a greyscale `mask` (255 = vehicle), a transparent-background `cutout`, or both',
  ),
  refine_edges: booleanParam('Anti-alias the mask border instead of a hard 0/255 edge', true),
});
export type VehicleSegmentParams = z.output<typeof VehicleSegmentParams>;
