import { CATALOGUE } from '../catalogue/catalogue.js';
import { INSPECTION_STAGES, type InspectionStageName } from '../catalogue/inspection-stages.js';

/**
 * The blended price of an inspection: the catalogue price of a full inspection, less the price
 * share of every excluded stage. Reserved at admission and charged once when the pipeline succeeds;
 * a failed inspection charges 0 and its child jobs never touch the ledger.
 */
export function inspectionPrice(exclude: readonly InspectionStageName[]): number {
  const full = CATALOGUE.inspections.price;
  const excluded = INSPECTION_STAGES.filter((stage) => exclude.includes(stage.name)).reduce(
    (sum, stage) => sum + stage.priceShare,
    0,
  );
  return Math.max(0, full - excluded);
}
