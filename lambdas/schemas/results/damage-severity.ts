import * as z from 'zod';
import { BoundingBox, Confidence, NeedsReview, Ratio } from './common.js';
import { DamageType, PartKey, RepairAction, Severity } from './vocabulary.js';

const GradedDamage = z.object({
  part: PartKey,
  type: DamageType,
  severity: Severity,
  score: Ratio.describe('Severity on a continuous scale, 0 = cosmetic, 1 = part destroyed'),
  repair_action: RepairAction.nullable().describe('Null when `include_repair_actions` is false'),
  bbox: BoundingBox,
  confidence: Confidence,
});

export const DamageSeverityResult = z.object({
  overall_severity: z.enum(['none', 'minor', 'moderate', 'severe']).describe('Worst grade over all damages; `none` when undamaged'),
  severity_score: Ratio.describe('Aggregated severity, 0 = undamaged'),
  drivable: z.boolean().describe('The damage does not prevent driving the vehicle'),
  structural_damage_suspected: z.boolean().describe('Deformation suggests frame or pillar damage; get a body-shop inspection'),
  damages: z.array(GradedDamage).describe('Graded damages, most severe first; empty when none'),
  confidence: Confidence.describe('Confidence in the overall grade'),
  needs_review: NeedsReview,
});
export type DamageSeverityResult = z.infer<typeof DamageSeverityResult>;
