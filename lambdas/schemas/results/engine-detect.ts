import * as z from 'zod';
import { Confidence, NeedsReview } from './common.js';
import { Severity } from './vocabulary.js';

export const ENGINE_FINDINGS = ['knocking', 'misfire', 'belt_squeal', 'exhaust_leak', 'lifter_tick', 'turbo_whine', 'bearing_noise', 'injector_tick'] as const;

const Finding = z.object({
  type: z.enum(ENGINE_FINDINGS).describe('Fault signature heard'),
  confidence: Confidence,
  severity: Severity,
  start_seconds: z.number().nonnegative().describe('Where in the clip the sound starts'),
  end_seconds: z.number().nonnegative().describe('Where in the clip the sound ends'),
});

export const EngineDetectResult = z.object({
  duration_seconds: z.number().positive().describe('Length of the analysed clip; billing counts every started second'),
  engine_detected: z.boolean().describe('An engine is audible in the clip'),
  engine_type: z.enum(['petrol', 'diesel', 'hybrid', 'unknown']).describe('Engine type, given or inferred'),
  idle_rpm_estimate: z.int().positive().nullable().describe('Idle speed estimated from the firing frequency; null when not measurable'),
  condition: z.enum(['normal', 'attention', 'critical']).describe('Overall verdict'),
  findings: z.array(Finding).describe('Abnormal sounds, most confident first; empty when the engine sounds healthy'),
  needs_review: NeedsReview,
});
export type EngineDetectResult = z.infer<typeof EngineDetectResult>;
