import { PricingRepairParams } from '../schemas/params/pricing-repair.js';
import type { PartKey, RepairAction } from '../schemas/results/vocabulary.js';
import { eurToMinor, MARKETS, roundMinor } from './markets.js';
import { PARTS } from './parts-catalogue.js';
import { round } from './prng.js';
import { ACTION_RANK, repairActionFor } from './repair-rules.js';
import { defineSandboxModel } from './support.js';

/** Paint material per panel, EUR, by finish. */
const PAINT_MATERIAL_EUR = { solid: 90, metallic: 120, pearl: 160 } as const;
/** Workshop hours for refinishing one panel, on top of the repair itself. */
const PAINT_HOURS = 1.8;
const POLISH_HOURS = 0.6;
const AFTERMARKET_DISCOUNT = 0.65;

interface WorkOrder {
  part: PartKey;
  action: RepairAction;
  quantity: number;
}

/** One order per part: several damages on a part collapse into the dearest action. */
function workOrders(params: PricingRepairParams): WorkOrder[] {
  const orders = new Map<PartKey, WorkOrder>();
  const add = (order: WorkOrder) => {
    const existing = orders.get(order.part);
    if (!existing || ACTION_RANK[order.action] > ACTION_RANK[existing.action])
      orders.set(order.part, { ...order, quantity: Math.max(order.quantity, existing?.quantity ?? 1) });
  };
  for (const part of params.parts ?? []) add({ part: part.part, action: part.action, quantity: part.quantity });
  for (const damage of params.damages ?? [])
    add({ part: damage.part, action: repairActionFor(damage.part, damage.type, damage.severity), quantity: 1 });
  return [...orders.values()];
}

export const pricingRepairModel = defineSandboxModel('pricing.repair', PricingRepairParams, (context) => {
  const { params } = context;
  const rng = context.rng([]);
  const market = MARKETS[params.country];
  const currency = params.currency ?? market.currency;
  const labourRate = params.labour_rate ?? roundMinor(eurToMinor(market.labourRateEur, currency), 1);
  const taxRate = params.include_tax ? market.taxRate : 0;
  const orders = context.empty ? [] : workOrders(params);
  const lineItems = orders.map(({ part, action, quantity }) => {
    const info = PARTS[part];
    const painted = info.paintable && action !== 'polish';
    const baseHours =
      action === 'replace'
        ? info.replaceHours
        : action === 'repair'
          ? info.repairHours
          : action === 'polish'
            ? POLISH_HOURS
            : 0;
    const labourHours = round((baseHours + (painted ? PAINT_HOURS : 0)) * quantity, 1);
    // part prices vary a little between suppliers and vehicle variants
    const partsEur =
      action === 'replace'
        ? info.partPriceEur *
          (params.parts_quality === 'oem' ? 1 : AFTERMARKET_DISCOUNT) *
          quantity *
          rng.float(0.9, 1.1, 3)
        : 0;
    const labour = Math.round(labourHours * labourRate);
    const partsCost = eurToMinor(partsEur, currency);
    const paint = painted ? eurToMinor(PAINT_MATERIAL_EUR[params.paint_type] * quantity, currency) : 0;
    return {
      part,
      label: info.label,
      action,
      quantity,
      labour_hours: labourHours,
      labour,
      parts: partsCost,
      paint,
      total: labour + partsCost + paint,
    };
  });
  const sum = (pick: (item: (typeof lineItems)[number]) => number) =>
    lineItems.reduce((total, item) => total + pick(item), 0);
  const net = sum((item) => item.total);
  const tax = Math.round(net * taxRate);
  const gross = net + tax;
  const [lowFactor, highFactor] = context.low
    ? [rng.float(0.6, 0.75, 2), rng.float(1.35, 1.6, 2)]
    : [rng.float(0.85, 0.93, 2), rng.float(1.08, 1.2, 2)];
  const confidence = lineItems.length > 0 ? context.confidence(rng, [0.75, 0.95]) : null;
  return {
    result: {
      country: params.country,
      currency,
      labour_rate: labourRate,
      tax_rate: taxRate,
      line_items: lineItems,
      totals: {
        labour: sum((item) => item.labour),
        parts: sum((item) => item.parts),
        paint: sum((item) => item.paint),
        net,
        tax,
        gross,
      },
      gross_range: { low: Math.round(gross * lowFactor), high: Math.round(gross * highFactor) },
      confidence,
      needs_review: confidence !== null && confidence < 0.5,
    },
    billableUnits: 1,
  };
});
