import { loadEvery } from '../../domain/kernel/load-once.js';
import type * as z from 'zod/mini';
import type { InferenceSlug } from '../../domain/catalogue/catalogue.js';
import { loadResultSchema, RESULT_SLUGS } from './load.js';
import { DamageDetectResult } from './damage-detect.js';
import { DamageSeverityResult } from './damage-severity.js';
import { DashboardReadResult } from './dashboard-read.js';
import { DocumentReadResult } from './document-read.js';
import { EngineDetectResult } from './engine-detect.js';
import { PartsDecomposeResult } from './parts-decompose.js';
import { PartsRecognizeResult } from './parts-recognize.js';
import { PartsSegmentResult } from './parts-segment.js';
import { PlateReadResult } from './plate-read.js';
import { PricingRepairResult } from './pricing-repair.js';
import { PricingVehicleResult } from './pricing-vehicle.js';
import { Render360Result } from './render-360.js';
import { RenderBackgroundResult } from './render-background.js';
import { RenderEnhanceResult } from './render-enhance.js';
import { RenderPlateResult } from './render-plate.js';
import { RenderVideoResult } from './render-video.js';
import { TireDetectResult } from './tire-detect.js';
import { TireReadResult } from './tire-read.js';
import { VehicleAnalyzeResult } from './vehicle-analyze.js';
import { VehicleIdentifyResult } from './vehicle-identify.js';
import { VehicleSegmentResult } from './vehicle-segment.js';
import { VideoOnboardResult } from './video-onboard.js';
import { ViewerHotspotsResult } from './viewer-hotspots.js';
import { VinReadResult } from './vin-read.js';
import type { WithFileRefs } from './file-refs.js';

/**
 * Result schemas describe the PUBLIC shape of `job.result`: every produced file is a
 * SignedFile `{ url, expires_at, content_type, width, height, size_bytes }`.
 *
 * What a sandbox model returns, and what the job stores, is the
 * INTERNAL shape `StoredResult<slug>`: the same object with each SignedFile replaced by
 * a placeholder `{ file_key: "<key of SandboxOutput.files>" }`. The read path turns the
 * stored shape into the public one with `replaceFileRefs(result, sign)`; validate with
 * these schemas only after that swap.
 */
export const resultSchemas: Record<InferenceSlug, z.ZodMiniType> = await loadEvery(RESULT_SLUGS, loadResultSchema);

/** Public result type per endpoint. */
export interface InferenceResults {
  'vehicle.analyze': VehicleAnalyzeResult;
  'vehicle.segment': VehicleSegmentResult;
  'vehicle.identify': VehicleIdentifyResult;
  'vin.read': VinReadResult;
  'plate.read': PlateReadResult;
  'document.read': DocumentReadResult;
  'dashboard.read': DashboardReadResult;
  'engine.detect': EngineDetectResult;
  'video.onboard': VideoOnboardResult;
  'damage.detect': DamageDetectResult;
  'damage.severity': DamageSeverityResult;
  'tire.read': TireReadResult;
  'tire.detect': TireDetectResult;
  'parts.recognize': PartsRecognizeResult;
  'parts.segment': PartsSegmentResult;
  'parts.decompose': PartsDecomposeResult;
  'pricing.vehicle': PricingVehicleResult;
  'pricing.repair': PricingRepairResult;
  'render.background': RenderBackgroundResult;
  'render.enhance': RenderEnhanceResult;
  'render.plate': RenderPlateResult;
  'render.360': Render360Result;
  'render.video': RenderVideoResult;
  'viewer.hotspots': ViewerHotspotsResult;
}

/** Stored (internal) result type per endpoint: files are `{ file_key }` placeholders. */
export type StoredResult<Slug extends InferenceSlug> = WithFileRefs<InferenceResults[Slug]>;

export { SignedFile } from './common.js';
export { fileRefKeys, replaceFileRefs } from './file-refs.js';
export type { WithFileRefs } from './file-refs.js';
export {
  DamageDetectResult,
  DamageSeverityResult,
  DashboardReadResult,
  DocumentReadResult,
  EngineDetectResult,
  PartsDecomposeResult,
  PartsRecognizeResult,
  PartsSegmentResult,
  PlateReadResult,
  PricingRepairResult,
  PricingVehicleResult,
  Render360Result,
  RenderBackgroundResult,
  RenderEnhanceResult,
  RenderPlateResult,
  RenderVideoResult,
  TireDetectResult,
  TireReadResult,
  VehicleAnalyzeResult,
  VehicleIdentifyResult,
  VehicleSegmentResult,
  VideoOnboardResult,
  ViewerHotspotsResult,
  VinReadResult,
};
