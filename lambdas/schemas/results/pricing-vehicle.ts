import * as z from 'zod/mini';
import { VEHICLE_CONDITIONS } from '../params/pricing-vehicle.js';
import { describe } from '../zod.js';
import { Confidence, MoneyRange, NeedsReview } from './common.js';
import { Currency, PricingCountry } from './vocabulary.js';

export const PricingVehicleResult = z.object({
  vehicle: describe(
    z.object({
      vin: describe(z.nullable(z.string()), 'VIN given; null when priced by make, model and year'),
      make: z.string(),
      model: z.string(),
      year: z.int(),
      trim: z.nullable(z.string()),
      mileage_km: z.int().check(z.nonnegative()),
      mileage_estimated: describe(z.boolean(), '`mileage_km` was not given and was estimated from age'),
      condition: z.enum(VEHICLE_CONDITIONS),
    }),
    'Vehicle as priced (decoded from the VIN where one was given)',
  ),
  country: PricingCountry,
  currency: Currency,
  valuation: describe(
    z.nullable(
      z.object({
        retail: describe(MoneyRange, 'Dealer asking price'),
        private_party: describe(MoneyRange, 'Price between private persons'),
        trade_in: describe(MoneyRange, 'What a dealer would pay'),
      }),
    ),
    'All amounts in minor units of `currency`; null when too few comparable listings exist',
  ),
  comparables_count: describe(z.int().check(z.nonnegative()), 'Comparable listings the valuation is based on'),
  confidence: describe(z.nullable(Confidence), 'Confidence in the valuation; null when `valuation` is null'),
  needs_review: NeedsReview,
});
export type PricingVehicleResult = z.infer<typeof PricingVehicleResult>;
