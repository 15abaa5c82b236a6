// Generated from the endpoint catalogue by tools/endpoint-loaders.ts. Do not edit.
import type * as z from 'zod/mini';
import type { InferenceSlug } from '../../domain/catalogue/catalogue.js';
import { loadOnce } from '../../domain/kernel/load-once.js';

/**
 * Each endpoint's result schema, imported when first asked for: the completion callback checks
 * one live job's result at a time, so its Lambda need not build all 24 at start. Not widened to
 * `ZodMiniType`: `InferenceResults` (index.ts) reads each endpoint's result type from here.
 */
export const RESULT_SCHEMA_LOADERS = {
  'vehicle.analyze': async () => (await import('./vehicle-analyze.js')).VehicleAnalyzeResult,
  'vehicle.segment': async () => (await import('./vehicle-segment.js')).VehicleSegmentResult,
  'vehicle.identify': async () => (await import('./vehicle-identify.js')).VehicleIdentifyResult,
  'vin.read': async () => (await import('./vin-read.js')).VinReadResult,
  'plate.read': async () => (await import('./plate-read.js')).PlateReadResult,
  'document.read': async () => (await import('./document-read.js')).DocumentReadResult,
  'dashboard.read': async () => (await import('./dashboard-read.js')).DashboardReadResult,
  'engine.detect': async () => (await import('./engine-detect.js')).EngineDetectResult,
  'video.onboard': async () => (await import('./video-onboard.js')).VideoOnboardResult,
  'damage.detect': async () => (await import('./damage-detect.js')).DamageDetectResult,
  'damage.severity': async () => (await import('./damage-severity.js')).DamageSeverityResult,
  'tire.read': async () => (await import('./tire-read.js')).TireReadResult,
  'tire.detect': async () => (await import('./tire-detect.js')).TireDetectResult,
  'parts.recognize': async () => (await import('./parts-recognize.js')).PartsRecognizeResult,
  'parts.segment': async () => (await import('./parts-segment.js')).PartsSegmentResult,
  'parts.decompose': async () => (await import('./parts-decompose.js')).PartsDecomposeResult,
  'pricing.vehicle': async () => (await import('./pricing-vehicle.js')).PricingVehicleResult,
  'pricing.repair': async () => (await import('./pricing-repair.js')).PricingRepairResult,
  'render.background': async () => (await import('./render-background.js')).RenderBackgroundResult,
  'render.enhance': async () => (await import('./render-enhance.js')).RenderEnhanceResult,
  'render.plate': async () => (await import('./render-plate.js')).RenderPlateResult,
  'render.360': async () => (await import('./render-360.js')).Render360Result,
  'render.video': async () => (await import('./render-video.js')).RenderVideoResult,
  'viewer.hotspots': async () => (await import('./viewer-hotspots.js')).ViewerHotspotsResult,
} satisfies Record<InferenceSlug, () => Promise<z.ZodMiniType>>;

export const loadResultSchema = loadOnce<InferenceSlug, z.ZodMiniType>(RESULT_SCHEMA_LOADERS);

export const RESULT_SLUGS = Object.keys(RESULT_SCHEMA_LOADERS) as InferenceSlug[];
