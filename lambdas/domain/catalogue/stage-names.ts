/** The eight stage names, in pipeline order. Kept import-free so the catalogue can derive its scenarios from them. */
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

export function isInspectionStageName(value: unknown): value is InspectionStageName {
  return typeof value === 'string' && (INSPECTION_STAGE_NAMES as readonly string[]).includes(value);
}

/** `fail_at_<stage>`: the test scenario that fails that stage of an inspection. */
export const INSPECTION_FAILURE_SCENARIOS = INSPECTION_STAGE_NAMES.map((name) => `fail_at_${name}` as const);
export type InspectionFailureScenario = (typeof INSPECTION_FAILURE_SCENARIOS)[number];
