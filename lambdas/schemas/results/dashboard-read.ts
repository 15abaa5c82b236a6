import * as z from 'zod';
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
  value: z.int().nonnegative().describe('Reading in the displayed unit'),
  unit: z.enum(['km', 'mi']).describe('Displayed unit'),
  value_km: z.int().nonnegative().describe('Reading converted to kilometres'),
  confidence: Confidence,
  bbox: BoundingBox,
});

const WarningLight = z.object({
  type: z.enum(WARNING_LIGHTS).describe('Lamp'),
  color: z.enum(['red', 'amber', 'green', 'blue', 'white']).describe('Lamp colour: red = stop, amber = attention'),
  confidence: Confidence,
  bbox: BoundingBox,
});

export const DashboardReadResult = z.object({
  cluster_type: z.enum(['analog', 'digital']).describe('Kind of instrument cluster'),
  odometer: Odometer.nullable().describe('Total distance; null when not legible'),
  fuel_level: z
    .object({ percent: z.int().min(0).max(100).describe('Tank (or battery) level in percent'), confidence: Confidence })
    .nullable()
    .describe('Null when no gauge is legible'),
  warning_lights: z.array(WarningLight).nullable().describe('Lit warning lamps; null when `detect_warning_lights` is false'),
  needs_review: NeedsReview,
});
export type DashboardReadResult = z.infer<typeof DashboardReadResult>;
