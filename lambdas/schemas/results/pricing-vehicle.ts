import * as z from 'zod';
import { VEHICLE_CONDITIONS } from '../params/pricing-vehicle.js';
import { Confidence, MoneyRange, NeedsReview } from './common.js';
import { Currency, PricingCountry } from './vocabulary.js';

export const PricingVehicleResult = z.object({
  vehicle: z
    .object({
      vin: z.string().nullable().describe('VIN given; null when priced by make, model and year'),
      make: z.string(),
      model: z.string(),
      year: z.int(),
      trim: z.string().nullable(),
      mileage_km: z.int().nonnegative(),
      mileage_estimated: z.boolean().describe('`mileage_km` was not given and was estimated from age'),
      condition: z.enum(VEHICLE_CONDITIONS),
    })
    .describe('Vehicle as priced (decoded from the VIN where one was given)'),
  country: PricingCountry,
  currency: Currency,
  valuation: z
    .object({
      retail: MoneyRange.describe('Dealer asking price'),
      private_party: MoneyRange.describe('Price between private persons'),
      trade_in: MoneyRange.describe('What a dealer would pay'),
    })
    .nullable()
    .describe('All amounts in minor units of `currency`; null when too few comparable listings exist'),
  comparables_count: z.int().nonnegative().describe('Comparable listings the valuation is based on'),
  confidence: Confidence.nullable().describe('Confidence in the valuation; null when `valuation` is null'),
  needs_review: NeedsReview,
});
export type PricingVehicleResult = z.infer<typeof PricingVehicleResult>;
