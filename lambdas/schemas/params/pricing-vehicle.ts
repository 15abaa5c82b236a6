import * as z from 'zod';
import { Currency, FuelType, PricingCountry, Vin } from '../results/vocabulary.js';
import { lowerCased, optionalIntegerParam, upperCased } from './fields.js';

export const VEHICLE_CONDITIONS = ['excellent', 'good', 'fair', 'poor'] as const;

/** Identify the vehicle by VIN, or by make + model + year; everything else refines the price. */
export const PricingVehicleParams = z
  .object({
    vin: upperCased(Vin.optional()).describe('VIN of the vehicle (17 characters, no I/O/Q). Required unless `make`, `model` and `year` are given'),
    make: z.string().trim().min(1).max(40).optional().describe('Manufacturer, e.g. `Volkswagen`. Required with `model` and `year` when no `vin`'),
    model: z.string().trim().min(1).max(60).optional().describe('Model name, e.g. `Golf`'),
    year: optionalIntegerParam('Model year', { min: 1950, max: 2027 }),
    trim: z.string().trim().min(1).max(60).optional().describe('Trim or version, e.g. `1.5 TSI Life`'),
    mileage_km: optionalIntegerParam('Odometer reading in km; estimated at 15,000 km a year of age when absent', { min: 0, max: 2_000_000 }),
    country: upperCased(PricingCountry.default('DE')).describe('Market to price in (ISO 3166-1 alpha-2)'),
    currency: lowerCased(Currency.optional()).describe("Currency of the amounts (ISO 4217); defaults to the market's currency"),
    condition: z.enum(VEHICLE_CONDITIONS).default('good').describe('Overall condition of the vehicle'),
    fuel_type: FuelType.optional(),
    transmission: z.enum(['manual', 'automatic']).optional().describe('Gearbox'),
  })
  .strict()
  .superRefine((params, context) => {
    const byModel = params.make !== undefined && params.model !== undefined && params.year !== undefined;
    if (params.vin === undefined && !byModel) {
      context.addIssue({ code: 'custom', path: ['vin'], message: 'Provide `vin`, or all of `make`, `model` and `year`' });
    }
  });
export type PricingVehicleParams = z.output<typeof PricingVehicleParams>;
