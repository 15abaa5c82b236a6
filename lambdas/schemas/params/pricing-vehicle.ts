import * as z from 'zod/mini';
import { Currency, FuelType, PricingCountry, Vin } from '../results/vocabulary.js';
import { describe } from '../zod.js';
import { lowerCased, optionalIntegerParam, upperCased } from './fields.js';

export const VEHICLE_CONDITIONS = ['excellent', 'good', 'fair', 'poor'] as const;

/** Identify the vehicle by VIN, or by make + model + year; everything else refines the price. */
export const PricingVehicleParams = z
  .strictObject({
    vin: describe(
      upperCased(z.optional(Vin)),
      'VIN of the vehicle (17 characters, no I/O/Q). Required unless `make`, `model` and `year` are given',
    ),
    make: describe(
      z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(40))),
      'Manufacturer, e.g. `Volkswagen`. Required with `model` and `year` when no `vin`',
    ),
    model: describe(z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(60))), 'Model name, e.g. `Golf`'),
    year: optionalIntegerParam('Model year', { min: 1950, max: 2027 }),
    trim: describe(
      z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(60))),
      'Trim or version, e.g. `1.5 TSI Life`',
    ),
    mileage_km: optionalIntegerParam('Odometer reading in km; estimated at 15,000 km a year of age when absent', {
      min: 0,
      max: 2_000_000,
    }),
    country: describe(upperCased(z._default(PricingCountry, 'DE')), 'Market to price in (ISO 3166-1 alpha-2)'),
    currency: describe(
      lowerCased(z.optional(Currency)),
      "Currency of the amounts (ISO 4217); defaults to the market's currency",
    ),
    condition: describe(z._default(z.enum(VEHICLE_CONDITIONS), 'good'), 'Overall condition of the vehicle'),
    fuel_type: z.optional(FuelType),
    transmission: describe(z.optional(z.enum(['manual', 'automatic'])), 'Gearbox'),
  })
  .check(
    z.superRefine((params, context) => {
      const byModel = params.make !== undefined && params.model !== undefined && params.year !== undefined;
      if (params.vin === undefined && !byModel) {
        context.addIssue({
          code: 'custom',
          path: ['vin'],
          message: 'Provide `vin`, or all of `make`, `model` and `year`',
        });
      }
    }),
  );
export type PricingVehicleParams = z.output<typeof PricingVehicleParams>;
