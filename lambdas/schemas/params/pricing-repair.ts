import * as z from 'zod';
import { Currency, DamageType, PartKey, PricingCountry, RepairAction, Severity, Vin } from '../results/vocabulary.js';
import { booleanParam, integerParam, lowerCased, optionalIntegerParam, upperCased } from './fields.js';

const RepairPartInput = z
  .object({
    part: PartKey,
    action: RepairAction.default('replace'),
    quantity: integerParam('How many of this part', { min: 1, max: 10 }, 1),
  })
  .strict()
  .describe('A part and the workshop action you already know it needs');

/** Same vocabulary as damage.detect / damage.severity results, so their entries map over directly. */
const RepairDamageInput = z
  .object({
    part: PartKey,
    type: DamageType,
    severity: Severity.default('moderate'),
  })
  .strict()
  .describe('A damage; the estimator chooses the repair action');

export const PricingRepairParams = z
  .object({
    parts: z.array(RepairPartInput).max(100).optional().describe('Parts with a known action. At least one of `parts` and `damages` must be non-empty'),
    damages: z.array(RepairDamageInput).max(100).optional().describe('Damages to cost; the action is chosen from type and severity'),
    labour_rate: optionalIntegerParam("Workshop labour rate per hour, in the currency's minor unit; defaults to the market average", { min: 100, max: 100_000 }),
    country: upperCased(PricingCountry.default('DE')).describe('Market to price in (ISO 3166-1 alpha-2)'),
    currency: lowerCased(Currency.optional()).describe("Currency of the amounts (ISO 4217); defaults to the market's currency"),
    vin: upperCased(Vin.optional()).describe('VIN, to price the exact parts of the vehicle'),
    make: z.string().trim().min(1).max(40).optional().describe('Manufacturer, when no VIN is known'),
    model: z.string().trim().min(1).max(60).optional().describe('Model name, when no VIN is known'),
    year: optionalIntegerParam('Model year, when no VIN is known', { min: 1950, max: 2027 }),
    paint_type: z.enum(['solid', 'metallic', 'pearl']).default('metallic').describe('Paint finish; drives paint material cost'),
    parts_quality: z.enum(['oem', 'aftermarket']).default('oem').describe('Price original (OEM) or aftermarket parts'),
    include_tax: booleanParam("Add the market's VAT / sales tax to `totals.gross`", true),
  })
  .strict()
  .superRefine((params, context) => {
    if ((params.parts?.length ?? 0) === 0 && (params.damages?.length ?? 0) === 0) {
      context.addIssue({ code: 'custom', path: ['parts'], message: 'Provide at least one entry in `parts` or `damages`' });
    }
  });
export type PricingRepairParams = z.output<typeof PricingRepairParams>;
