import type { EndpointSlug } from './catalogue.js';

export const INSPECTION_STAGE_NAMES = [
  'onboard_walkaround',
  'isolate_vehicle',
  'decompose_parts',
  'detect_damage',
  'grade_severity',
  'price_repair',
  'render_listing',
  'anchor_hotspots',
] as const;
export type InspectionStageName = (typeof INSPECTION_STAGE_NAMES)[number];

/** Which endpoint implements each stage; clients branch on the name, never on the endpoint. */
export const INSPECTION_STAGES: ReadonlyArray<{ stage: number; name: InspectionStageName; endpoint: EndpointSlug }> = [
  { stage: 1, name: 'onboard_walkaround', endpoint: 'video.onboard' },
  { stage: 2, name: 'isolate_vehicle', endpoint: 'vehicle.segment' },
  { stage: 3, name: 'decompose_parts', endpoint: 'parts.decompose' },
  { stage: 4, name: 'detect_damage', endpoint: 'damage.detect' },
  { stage: 5, name: 'grade_severity', endpoint: 'damage.severity' },
  { stage: 6, name: 'price_repair', endpoint: 'pricing.repair' },
  { stage: 7, name: 'render_listing', endpoint: 'render.background' },
  { stage: 8, name: 'anchor_hotspots', endpoint: 'viewer.hotspots' },
];
