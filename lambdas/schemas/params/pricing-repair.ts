import * as z from 'zod/mini';
import { Currency, DamageType, PartKey, PricingCountry, RepairAction, Severity, Vin } from '../results/vocabulary.js';
import { describe } from '../zod.js';
import { booleanParam, integerParam, lowerCased, optionalIntegerParam, upperCased } from './fields.js';

const RepairPartInput = describe(
  z.strictObject({
    part: PartKey,
    action: z._default(RepairAction, 'replace'),
    quantity: integerParam('How many of this part', { min: 1, max: 10 }, 1),
  }),
  'A part and the workshop action you already know it needs',
);

/** Same vocabulary as damage.detect / damage.severity results, so their entries map over directly. */
const RepairDamageInput = describe(
  z.strictObject({
    part: PartKey,
    type: DamageType,
    severity: z._default(Severity, 'moderate'),
  }),
  'A damage; the estimator chooses the repair action',
);

export const PricingRepairParams = z
  .strictObject({
    parts: describe(
      z.optional(z.array(RepairPartInput).check(z.maxLength(100))),
      'Parts with a known action. At least one of `parts` and `damages` must be non-empty',
    ),
    damages: describe(
      z.optional(z.array(RepairDamageInput).check(z.maxLength(100))),
      'Damages to cost; the action is chosen from type and severity',
    ),
    labour_rate: optionalIntegerParam(
      "Workshop labour rate per hour, in the currency's minor unit; defaults to the market average",
      { min: 100, max: 100_000 },
    ),
    country: describe(upperCased(z._default(PricingCountry, 'DE')), 'Market to price in (ISO 3166-1 alpha-2)'),
    currency: describe(
      lowerCased(z.optional(Currency)),
      "Currency of the amounts (ISO 4217); defaults to the market's currency",
    ),
    vin: describe(upperCased(z.optional(Vin)), 'VIN, to price the exact parts of the vehicle'),
    make: describe(
      z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(40))),
      'Manufacturer, when no VIN is known',
    ),
    model: describe(
      z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(60))),
      'Model name, when no VIN is known',
    ),
    year: optionalIntegerParam('Model year, when no VIN is known', { min: 1950, max: 2027 }),
    paint_type: describe(
      z._default(z.enum(['solid', 'metallic', 'pearl']), 'metallic'),
      'Paint finish; drives paint material cost',
    ),
    parts_quality: describe(
      z._default(z.enum(['oem', 'aftermarket']), 'oem'),
      'Price original (OEM) or aftermarket parts',
    ),
    include_tax: booleanParam("Add the market's VAT / sales tax to `totals.gross`", true),
  })
  .check(
    z.superRefine((params, context) => {
      if ((params.parts?.length ?? 0) === 0 && (params.damages?.length ?? 0) === 0) {
        context.addIssue({
          code: 'custom',
          path: ['parts'],
          message: 'Provide at least one entry in `parts` or `damages`',
        });
      }
    }),
  );
export type PricingRepairParams = z.output<typeof PricingRepairParams>;
