import type { Scenario } from '../catalogue/catalogue.js';
import type { InspectionStageName } from '../catalogue/inspection-stages.js';
import type { StageRecord } from '../jobs/job.js';

/**
 * What a stage's child job is steered by in test mode: `slow` slows every stage, `model_error`
 * fails detect_damage, `fail_at_<stage>` fails that stage. The child fails the way a model error does.
 */
export function stageScenario(inspectionScenario: string | null, name: InspectionStageName): Scenario | null {
  if (inspectionScenario === 'slow') return 'slow';
  if (inspectionScenario === 'model_error' && name === 'detect_damage') return 'model_error';
  if (inspectionScenario === `fail_at_${name}`) return 'model_error';
  return null;
}

interface DamageEntry {
  part: string;
  type: string;
  severity?: string;
}

function damagesOf(stage: StageRecord | undefined): DamageEntry[] {
  const damages = stage?.status === 'succeeded' ? (stage.result?.damages as unknown) : undefined;
  if (!Array.isArray(damages)) return [];
  return damages
    .filter(
      (d): d is DamageEntry =>
        typeof d === 'object' &&
        d !== null &&
        typeof (d as DamageEntry).part === 'string' &&
        typeof (d as DamageEntry).type === 'string',
    )
    .map((d) => ({ part: d.part, type: d.type, ...(typeof d.severity === 'string' ? { severity: d.severity } : {}) }));
}

/**
 * Parameters of a stage's child job. Stages run with their endpoint's defaults (the backend fills
 * them), except repair pricing, which prices the damages the earlier stages found: graded ones
 * when grade_severity ran, else the detected ones. Null when there is nothing to price.
 */
export function stageParams(name: InspectionStageName, stages: readonly StageRecord[]): Record<string, unknown> | null {
  if (name !== 'price_repair') return {};
  const graded = damagesOf(stages.find((s) => s.name === 'grade_severity'));
  const damages = graded.length > 0 ? graded : damagesOf(stages.find((s) => s.name === 'detect_damage'));
  return damages.length > 0 ? { damages: damages.slice(0, 100) } : null;
}

/**
 * The estimate of an undamaged vehicle (or one whose damage stages were excluded): pricing.repair
 * refuses an empty list, so the stage's child job settles with this zero estimate without a model call.
 */
export const NOTHING_TO_PRICE: Record<string, unknown> = {
  country: 'DE',
  currency: 'eur',
  labour_rate: 0,
  tax_rate: 0,
  line_items: [],
  totals: { labour: 0, parts: 0, paint: 0, net: 0, tax: 0, gross: 0 },
  gross_range: { low: 0, high: 0 },
  confidence: null,
  needs_review: false,
};
