import { billableSeconds, CATALOGUE } from '../domain/catalogue/catalogue.js';
import { EngineDetectParams } from '../schemas/params/engine-detect.js';
import { ENGINE_FINDINGS } from '../schemas/results/engine-detect.js';
import { SEVERITIES } from '../schemas/results/vocabulary.js';
import { round } from './prng.js';
import { byConfidence, defineSandboxModel, needsReview } from './support.js';

const IDLE_RPM = { petrol: [650, 850], diesel: [720, 900] } as const;

export const engineDetectModel = defineSandboxModel('engine.detect', EngineDetectParams, (context) => {
  const { params } = context;
  const rng = context.rng();
  const reserve = CATALOGUE['engine.detect'].reserveUnitsPerAsset;
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
