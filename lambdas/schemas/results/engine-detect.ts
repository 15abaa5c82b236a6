import * as z from 'zod/mini';
import { describe } from '../zod.js';
import { Confidence, NeedsReview } from './common.js';
import { Severity } from './vocabulary.js';

export const ENGINE_FINDINGS = [
  'knocking',
  'misfire',
  'belt_squeal',
  'exhaust_leak',
  'lifter_tick',
  'turbo_whine',
  'bearing_noise',
  'injector_tick',
] as const;

const Finding = z.object({
  type: describe(z.enum(ENGINE_FINDINGS), 'Fault signature heard'),
  confidence: Confidence,
  severity: Severity,
  start_seconds: describe(z.number().check(z.nonnegative()), 'Where in the clip the sound starts'),
  end_seconds: describe(z.number().check(z.nonnegative()), 'Where in the clip the sound ends'),
});

export const EngineDetectResult = z.object({
  duration_seconds: describe(
    z.number().check(z.positive()),
    'Length of the analysed clip; billing counts every started second',
  ),
  engine_detected: describe(z.boolean(), 'An engine is audible in the clip'),
  engine_type: describe(z.enum(['petrol', 'diesel', 'hybrid', 'unknown']), 'Engine type, given or inferred'),
  idle_rpm_estimate: describe(
    z.nullable(z.int().check(z.positive())),
    'Idle speed estimated from the firing frequency; null when not measurable',
  ),
  condition: describe(z.enum(['normal', 'attention', 'critical']), 'Overall verdict'),
  findings: describe(z.array(Finding), 'Abnormal sounds, most confident first; empty when the engine sounds healthy'),
  needs_review: NeedsReview,
});
export type EngineDetectResult = z.infer<typeof EngineDetectResult>;
