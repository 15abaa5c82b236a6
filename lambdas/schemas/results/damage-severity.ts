import * as z from 'zod/mini';
import { describe } from '../zod.js';
import { BoundingBox, Confidence, NeedsReview, Ratio } from './common.js';
import { DamageType, PartKey, RepairAction, Severity } from './vocabulary.js';

const GradedDamage = z.object({
  part: PartKey,
  type: DamageType,
  severity: Severity,
  score: describe(Ratio, 'Severity on a continuous scale, 0 = cosmetic, 1 = part destroyed'),
  repair_action: describe(z.nullable(RepairAction), 'Null when `include_repair_actions` is false'),
  bbox: BoundingBox,
  confidence: Confidence,
});

export const DamageSeverityResult = z.object({
  overall_severity: describe(
    z.enum(['none', 'minor', 'moderate', 'severe']),
    'Worst grade over all damages; `none` when undamaged',
  ),
  severity_score: describe(Ratio, 'Aggregated severity, 0 = undamaged'),
  drivable: describe(z.boolean(), 'The damage does not prevent driving the vehicle'),
  structural_damage_suspected: describe(
    z.boolean(),
    'Deformation suggests frame or pillar damage; get a body-shop inspection',
  ),
  damages: describe(z.array(GradedDamage), 'Graded damages, most severe first; empty when none'),
  confidence: describe(Confidence, 'Confidence in the overall grade'),
  needs_review: NeedsReview,
});
export type DamageSeverityResult = z.infer<typeof DamageSeverityResult>;
