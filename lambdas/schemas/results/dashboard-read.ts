import * as z from 'zod/mini';
import { describe } from '../zod.js';
import { BoundingBox, Confidence, NeedsReview } from './common.js';

export const WARNING_LIGHTS = [
  'check_engine',
  'abs',
  'airbag',
  'oil_pressure',
  'battery',
  'tire_pressure',
  'brake_system',
  'coolant_temperature',
  'glow_plug',
  'traction_control',
  'low_fuel',
  'service_due',
] as const;

const Odometer = z.object({
  value: describe(z.int().check(z.nonnegative()), 'Reading in the displayed unit'),
  unit: describe(z.enum(['km', 'mi']), 'Displayed unit'),
  value_km: describe(z.int().check(z.nonnegative()), 'Reading converted to kilometres'),
  confidence: Confidence,
  bbox: BoundingBox,
});

const WarningLight = z.object({
  type: describe(z.enum(WARNING_LIGHTS), 'Lamp'),
  color: describe(z.enum(['red', 'amber', 'green', 'blue', 'white']), 'Lamp colour: red = stop, amber = attention'),
  confidence: Confidence,
  bbox: BoundingBox,
});

export const DashboardReadResult = z.object({
  cluster_type: describe(z.enum(['analog', 'digital']), 'Kind of instrument cluster'),
  odometer: describe(z.nullable(Odometer), 'Total distance; null when not legible'),
  fuel_level: describe(
    z.nullable(
      z.object({
        percent: describe(z.int().check(z.minimum(0), z.maximum(100)), 'Tank (or battery) level in percent'),
        confidence: Confidence,
      }),
    ),
    'Null when no gauge is legible',
  ),
  warning_lights: describe(
    z.nullable(z.array(WarningLight)),
    'Lit warning lamps; null when `detect_warning_lights` is false',
  ),
  needs_review: NeedsReview,
});
export type DashboardReadResult = z.infer<typeof DashboardReadResult>;
