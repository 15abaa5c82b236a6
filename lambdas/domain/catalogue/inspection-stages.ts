import type { EndpointSlug } from './catalogue.js';
import { INSPECTION_STAGE_NAMES, type InspectionStageName } from './stage-names.js';

export { INSPECTION_STAGE_NAMES, type InspectionStageName };

export interface InspectionStageDefinition {
  stage: number;
  name: InspectionStageName;
  endpoint: EndpointSlug;
  /**
   * Credits of the blended inspection price this stage accounts for. The shares add up to the
   * catalogue price of a full inspection; excluding a stage takes its share off the price.
   */
  priceShare: number;
}

/** Which endpoint implements each stage; clients branch on the name, never on the endpoint. */
export const INSPECTION_STAGES: ReadonlyArray<InspectionStageDefinition> = [
  { stage: 1, name: 'onboard_walkaround', endpoint: 'video.onboard', priceShare: 30 },
  { stage: 2, name: 'isolate_vehicle', endpoint: 'vehicle.segment', priceShare: 15 },
  { stage: 3, name: 'decompose_parts', endpoint: 'parts.decompose', priceShare: 20 },
  { stage: 4, name: 'detect_damage', endpoint: 'damage.detect', priceShare: 20 },
  { stage: 5, name: 'grade_severity', endpoint: 'damage.severity', priceShare: 15 },
  { stage: 6, name: 'price_repair', endpoint: 'pricing.repair', priceShare: 15 },
  { stage: 7, name: 'render_listing', endpoint: 'render.background', priceShare: 20 },
  { stage: 8, name: 'anchor_hotspots', endpoint: 'viewer.hotspots', priceShare: 15 },
];

export function stageDefinition(name: InspectionStageName): InspectionStageDefinition {
  return INSPECTION_STAGES.find((stage) => stage.name === name)!;
}
