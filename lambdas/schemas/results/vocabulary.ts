import * as z from 'zod/mini';
import { describe, meta } from '../zod.js';

/**
 * Closed vocabularies shared by params and results. One list per concept, so that a
 * value one endpoint returns (a part key from damage.detect, say) is accepted verbatim
 * as input by another (pricing.repair).
 */

export const BODY_TYPES = [
  'sedan',
  'hatchback',
  'estate',
  'suv',
  'coupe',
  'convertible',
  'van',
  'pickup',
  'mpv',
] as const;
export const BodyType = meta(z.enum(BODY_TYPES), { id: 'BodyType', description: 'Body style' });
export type BodyType = z.infer<typeof BodyType>;

/** Exterior viewpoints clockwise from the front, plus the cabin. */
export const EXTERIOR_VIEWPOINTS = [
  'front',
  'front_left',
  'left',
  'rear_left',
  'rear',
  'rear_right',
  'right',
  'front_right',
] as const;
export const VIEWPOINTS = [...EXTERIOR_VIEWPOINTS, 'interior'] as const;
export const ExteriorViewpoint = meta(z.enum(EXTERIOR_VIEWPOINTS), {
  id: 'ExteriorViewpoint',
  description: 'Exterior side of the vehicle the camera faces; left/right are from the driver seat',
});
export type ExteriorViewpoint = z.infer<typeof ExteriorViewpoint>;
export const Viewpoint = meta(z.enum(VIEWPOINTS), {
  id: 'Viewpoint',
  description: 'Side of the vehicle the camera faces; left/right are from the driver seat',
});
export type Viewpoint = z.infer<typeof Viewpoint>;

export const COLOR_NAMES = [
  'white',
  'black',
  'silver',
  'grey',
  'blue',
  'red',
  'green',
  'brown',
  'beige',
  'yellow',
  'orange',
] as const;
export const ColorName = meta(z.enum(COLOR_NAMES), { id: 'ColorName', description: 'Colour family' });
export type ColorName = z.infer<typeof ColorName>;

export const PART_CATEGORIES = ['body', 'glass', 'lighting', 'wheel', 'trim'] as const;
export const PartCategory = meta(z.enum(PART_CATEGORIES), {
  id: 'PartCategory',
  description: 'Group a part belongs to',
});
export type PartCategory = z.infer<typeof PartCategory>;

/** Exterior parts; left/right are from the driver seat. */
export const PART_KEYS = [
  'front_bumper',
  'rear_bumper',
  'hood',
  'tailgate',
  'roof',
  'grille',
  'front_left_door',
  'front_right_door',
  'rear_left_door',
  'rear_right_door',
  'front_left_fender',
  'front_right_fender',
  'rear_left_quarter_panel',
  'rear_right_quarter_panel',
  'left_rocker_panel',
  'right_rocker_panel',
  'windshield',
  'rear_window',
  'left_headlight',
  'right_headlight',
  'left_taillight',
  'right_taillight',
  'left_mirror',
  'right_mirror',
  'front_left_wheel',
  'front_right_wheel',
  'rear_left_wheel',
  'rear_right_wheel',
  'front_license_plate',
  'rear_license_plate',
] as const;
export const PartKey = meta(z.enum(PART_KEYS), {
  id: 'PartKey',
  description: 'Exterior part, snake_case; left/right from the driver seat',
});
export type PartKey = z.infer<typeof PartKey>;

export const DAMAGE_TYPES = [
  'scratch',
  'dent',
  'crack',
  'broken',
  'missing',
  'paint_chip',
  'rust',
  'glass_crack',
  'deformation',
  'misalignment',
] as const;
export const DamageType = meta(z.enum(DAMAGE_TYPES), { id: 'DamageType', description: 'Kind of damage' });
export type DamageType = z.infer<typeof DamageType>;

export const SEVERITIES = ['minor', 'moderate', 'severe'] as const;
export const Severity = meta(z.enum(SEVERITIES), { id: 'Severity', description: 'Severity grade' });
export type Severity = z.infer<typeof Severity>;

export const REPAIR_ACTIONS = ['polish', 'paint', 'repair', 'replace'] as const;
export const RepairAction = meta(z.enum(REPAIR_ACTIONS), {
  id: 'RepairAction',
  description: 'Cheapest workshop action that restores the part',
});
export type RepairAction = z.infer<typeof RepairAction>;

/** Markets the pricing models are trained on (ISO 3166-1 alpha-2). */
export const PRICING_COUNTRIES = [
  'DE',
  'FR',
  'IT',
  'ES',
  'NL',
  'BE',
  'AT',
  'IE',
  'GB',
  'CH',
  'SE',
  'NO',
  'DK',
  'PL',
  'CZ',
  'US',
  'CA',
  'AU',
] as const;
export const PricingCountry = meta(z.enum(PRICING_COUNTRIES), {
  id: 'PricingCountry',
  description: 'Market, ISO 3166-1 alpha-2',
});
export type PricingCountry = z.infer<typeof PricingCountry>;

/** ISO 4217, lower case like the catalogue's `currency` field; all have two decimals. */
export const CURRENCIES = ['eur', 'gbp', 'chf', 'sek', 'nok', 'dkk', 'pln', 'czk', 'usd', 'cad', 'aud'] as const;
export const Currency = meta(z.enum(CURRENCIES), { id: 'Currency', description: 'ISO 4217 currency code, lower case' });
export type Currency = z.infer<typeof Currency>;

export const FUEL_TYPES = ['petrol', 'diesel', 'hybrid', 'electric', 'lpg'] as const;
export const FuelType = meta(z.enum(FUEL_TYPES), { id: 'FuelType', description: 'Fuel or drive type' });
export type FuelType = z.infer<typeof FuelType>;

export const ASPECT_RATIOS = ['4:3', '16:9', '3:2'] as const;
export const AspectRatio = meta(z.enum(ASPECT_RATIOS), { id: 'AspectRatio', description: 'Output aspect ratio' });
export type AspectRatio = z.infer<typeof AspectRatio>;

export const OUTPUT_FORMATS = ['jpg', 'png', 'webp'] as const;
export const OutputFormat = meta(z.enum(OUTPUT_FORMATS), {
  id: 'OutputFormat',
  description: 'Requested image encoding',
});
export type OutputFormat = z.infer<typeof OutputFormat>;

export const RENDER_CATEGORIES = ['exterior', 'interior', 'tire', 'trunk', 'engine'] as const;
export const RenderCategory = meta(z.enum(RENDER_CATEGORIES), { id: 'RenderCategory', description: 'Kind of shot' });
export type RenderCategory = z.infer<typeof RenderCategory>;

/** 17 characters; I, O and Q never occur in a VIN (ISO 3779). */
export const VIN_PATTERN = /^[A-HJ-NPR-Z0-9]{17}$/;
export const Vin = describe(
  z.string().check(z.regex(VIN_PATTERN)),
  'Vehicle identification number: 17 characters, no I, O or Q',
);
