import * as z from 'zod';
import { booleanParam } from './fields.js';

export const DashboardReadParams = z
  .object({
    odometer_unit: z.enum(['auto', 'km', 'mi']).default('auto').describe('Unit the odometer displays, or `auto` to read it from the cluster'),
    detect_warning_lights: booleanParam('Also report lit warning lamps; `warning_lights` is null when false', true),
  })
  .strict();
export type DashboardReadParams = z.output<typeof DashboardReadParams>;
