import { billableSeconds, CATALOGUE } from '../domain/catalogue/catalogue.js';
import { EngineDetectParams } from '../schemas/params/engine-detect.js';
import { ENGINE_FINDINGS } from '../schemas/results/engine-detect.js';
import { SEVERITIES } from '../schemas/results/vocabulary.js';
import { round } from './prng.js';
import { fixtureConfidence } from './samples/readings.js';
import type { Sample } from './samples/scenes.js';
import { byConfidence, defineSandboxModel, needsReview, type SandboxContext } from './support.js';

const IDLE_RPM = { petrol: [650, 850], diesel: [720, 900] } as const;

export const engineDetectModel = defineSandboxModel('engine.detect', EngineDetectParams, (context) => {
  const { params } = context;
  const rng = context.rng();
  const reserve = CATALOGUE['engine.detect'].reserveUnitsPerAsset;
  const sample = context.sample();
  if (sample) return sampleRecording(context, sample, reserve);
  // a phone recording of an idling engine: 5 s up to the longest clip admission reserved for
  const duration = rng.float(5, reserve, 1);
  const engineType =
    params.engine_type === 'auto' ? rng.pick(['petrol', 'diesel', 'hybrid'] as const) : params.engine_type;
  // a hybrid idling on its battery has no firing frequency to measure
  const idle = engineType === 'hybrid' ? null : rng.int(IDLE_RPM[engineType][0], IDLE_RPM[engineType][1]);
  const count = context.empty ? 0 : rng.int(1, 2);
  const findings = byConfidence(
    rng.sample(ENGINE_FINDINGS, count).map((type) => {
      const start = rng.float(0, duration * 0.6, 1);
      return {
        type,
        confidence: context.confidence(rng, [0.6, 0.95]),
        severity: rng.pick(SEVERITIES),
        start_seconds: start,
        end_seconds: round(Math.min(duration, start + rng.float(1, 8, 1)), 1),
      };
    }),
  ).filter((finding) => context.passes(finding.confidence, params.min_confidence));
  const condition =
    findings.length === 0
      ? 'normal'
      : findings.some((finding) => finding.severity === 'severe')
        ? 'critical'
        : 'attention';
  return {
    result: {
      duration_seconds: duration,
      engine_detected: true,
      engine_type: engineType,
      idle_rpm_estimate: idle,
      condition,
      findings,
      needs_review: needsReview(findings.map((finding) => finding.confidence)),
    },
    // one clip per call (catalogue maxAssets 1), billed per started second
    billableUnits: billableSeconds(duration, reserve),
  };
});

/**
 * The engine recording: its length, its idle speed and the knock its scene puts in it. Any other
 * sample is no recording of an engine.
 */
function sampleRecording(context: SandboxContext<EngineDetectParams>, sample: Sample, reserve: number) {
  const { params } = context;
  if (sample.kind !== 'engine_audio') {
    return {
      result: {
        duration_seconds: 1,
        engine_detected: false,
        engine_type: params.engine_type === 'auto' ? ('unknown' as const) : params.engine_type,
        idle_rpm_estimate: null,
        condition: 'normal' as const,
        findings: [],
        needs_review: false,
      },
      billableUnits: 1,
    };
  }
  const findings = context.empty
    ? []
    : sample.findings
        .map((finding) => ({
          type: finding.type,
          confidence: fixtureConfidence(context, 0.93),
          severity: finding.severity,
          start_seconds: finding.startSeconds,
          end_seconds: finding.endSeconds,
        }))
        .filter((finding) => context.passes(finding.confidence, params.min_confidence));
  return {
    result: {
      duration_seconds: sample.durationSeconds,
      engine_detected: true,
      engine_type: params.engine_type === 'auto' ? sample.engineType : params.engine_type,
      idle_rpm_estimate: sample.idleRpm,
      condition:
        findings.length === 0
          ? ('normal' as const)
          : findings.some((finding) => finding.severity === 'severe')
            ? ('critical' as const)
            : ('attention' as const),
      findings,
      needs_review: needsReview(findings.map((finding) => finding.confidence)),
    },
    billableUnits: billableSeconds(sample.durationSeconds, reserve),
  };
}
