import * as z from 'zod';
import { Confidence, MinorAmount, NeedsReview } from './common.js';
import { Currency, PartKey, PricingCountry, RepairAction } from './vocabulary.js';

const LineItem = z.object({
  part: PartKey,
  label: z.string().describe('Human-readable part name'),
  action: RepairAction,
  quantity: z.int().min(1),
  labour_hours: z.number().nonnegative().describe('Workshop hours'),
  labour: MinorAmount.describe('Labour cost, minor units'),
  parts: MinorAmount.describe('Parts cost, minor units'),
  paint: MinorAmount.describe('Paint material cost, minor units'),
  total: MinorAmount.describe('labour + parts + paint, minor units'),
});

export const PricingRepairResult = z.object({
  country: PricingCountry,
  currency: Currency,
  labour_rate: MinorAmount.describe('Labour rate per hour used, minor units'),
  tax_rate: z.number().min(0).max(1).describe('VAT / sales tax rate applied; 0 when `include_tax` is false'),
  line_items: z.array(LineItem).describe('One line per part; several damages on one part are merged into the most expensive action'),
  totals: z
    .object({
      labour: MinorAmount,
      parts: MinorAmount,
      paint: MinorAmount,
      net: MinorAmount.describe('Sum before tax'),
      tax: MinorAmount,
      gross: MinorAmount.describe('net + tax'),
    })
    .describe('All amounts in minor units of `currency`'),
  gross_range: z.object({ low: MinorAmount, high: MinorAmount }).describe('Likely spread of `totals.gross` between workshops, minor units'),
  confidence: Confidence.nullable().describe('Confidence in the estimate; null when there are no line items'),
  needs_review: NeedsReview,
});
export type PricingRepairResult = z.infer<typeof PricingRepairResult>;
