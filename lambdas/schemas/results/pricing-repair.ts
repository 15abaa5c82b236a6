import * as z from 'zod/mini';
import { describe } from '../zod.js';
import { Confidence, MinorAmount, NeedsReview } from './common.js';
import { Currency, PartKey, PricingCountry, RepairAction } from './vocabulary.js';

const LineItem = z.object({
  part: PartKey,
  label: describe(z.string(), 'Human-readable part name'),
  action: RepairAction,
  quantity: z.int().check(z.minimum(1)),
  labour_hours: describe(z.number().check(z.nonnegative()), 'Workshop hours'),
  labour: describe(MinorAmount, 'Labour cost, minor units'),
  parts: describe(MinorAmount, 'Parts cost, minor units'),
  paint: describe(MinorAmount, 'Paint material cost, minor units'),
  total: describe(MinorAmount, 'labour + parts + paint, minor units'),
});

export const PricingRepairResult = z.object({
  country: PricingCountry,
  currency: Currency,
  labour_rate: describe(MinorAmount, 'Labour rate per hour used, minor units'),
  tax_rate: describe(
    z.number().check(z.minimum(0), z.maximum(1)),
    'VAT / sales tax rate applied; 0 when `include_tax` is false',
  ),
  line_items: describe(
    z.array(LineItem),
    'One line per part; several damages on one part are merged into the most expensive action',
  ),
  totals: describe(
    z.object({
      labour: MinorAmount,
      parts: MinorAmount,
      paint: MinorAmount,
      net: describe(MinorAmount, 'Sum before tax'),
      tax: MinorAmount,
      gross: describe(MinorAmount, 'net + tax'),
    }),
    'All amounts in minor units of `currency`',
  ),
  gross_range: describe(
    z.object({ low: MinorAmount, high: MinorAmount }),
    'Likely spread of `totals.gross` between workshops, minor units',
  ),
  confidence: describe(z.nullable(Confidence), 'Confidence in the estimate; null when there are no line items'),
  needs_review: NeedsReview,
});
export type PricingRepairResult = z.infer<typeof PricingRepairResult>;
