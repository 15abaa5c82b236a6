import * as z from 'zod/mini';
import { describe } from '../zod.js';
import { booleanParam } from './fields.js';

export const DashboardReadParams = z.strictObject({
  odometer_unit: describe(
    z._default(z.enum(['auto', 'km', 'mi']), 'auto'),
    'Unit the odometer displays, or `auto` to read it from the cluster',
  ),
  detect_warning_lights: booleanParam('Also report lit warning lamps; `warning_lights` is null when false', true),
});
export type DashboardReadParams = z.output<typeof DashboardReadParams>;
