// Generated from the endpoint catalogue by tools/endpoint-loaders.ts. Do not edit.
import type * as z from 'zod/mini';
import type { InferenceSlug } from '../../domain/catalogue/catalogue.js';
import { loadOnce } from '../../domain/kernel/load-once.js';

/**
 * Endpoint parameters, without the input fields themselves (`image`, `audio`, `video`,
 * `images`, `input_ref`, `input_refs`), which the pipeline strips before validating.
 * Every object is strict: an unknown parameter is a 400, never silently ignored.
 */
export type ParamsSchema = z.ZodMiniObject<z.core.$ZodShape, z.core.$strict>;

/**
 * Each endpoint's schema module, loaded when first asked for. Every inference route is its own
 * Lambda on AWS, so a function builds only its own endpoint's schema instead of all 24 at start
 * (esbuild inlines these modules and runs each one on its first import).
 */
const LOADERS: Record<InferenceSlug, () => Promise<ParamsSchema>> = {
  'vehicle.analyze': async () => (await import('./vehicle-analyze.js')).VehicleAnalyzeParams,
  'vehicle.segment': async () => (await import('./vehicle-segment.js')).VehicleSegmentParams,
  'vehicle.identify': async () => (await import('./vehicle-identify.js')).VehicleIdentifyParams,
  'vin.read': async () => (await import('./vin-read.js')).VinReadParams,
  'plate.read': async () => (await import('./plate-read.js')).PlateReadParams,
  'document.read': async () => (await import('./document-read.js')).DocumentReadParams,
  'dashboard.read': async () => (await import('./dashboard-read.js')).DashboardReadParams,
  'engine.detect': async () => (await import('./engine-detect.js')).EngineDetectParams,
  'video.onboard': async () => (await import('./video-onboard.js')).VideoOnboardParams,
  'damage.detect': async () => (await import('./damage-detect.js')).DamageDetectParams,
  'damage.severity': async () => (await import('./damage-severity.js')).DamageSeverityParams,
  'tire.read': async () => (await import('./tire-read.js')).TireReadParams,
  'tire.detect': async () => (await import('./tire-detect.js')).TireDetectParams,
  'parts.recognize': async () => (await import('./parts-recognize.js')).PartsRecognizeParams,
  'parts.segment': async () => (await import('./parts-segment.js')).PartsSegmentParams,
  'parts.decompose': async () => (await import('./parts-decompose.js')).PartsDecomposeParams,
  'pricing.vehicle': async () => (await import('./pricing-vehicle.js')).PricingVehicleParams,
  'pricing.repair': async () => (await import('./pricing-repair.js')).PricingRepairParams,
  'render.background': async () => (await import('./render-background.js')).RenderBackgroundParams,
  'render.enhance': async () => (await import('./render-enhance.js')).RenderEnhanceParams,
  'render.plate': async () => (await import('./render-plate.js')).RenderPlateParams,
  'render.360': async () => (await import('./render-360.js')).Render360Params,
  'render.video': async () => (await import('./render-video.js')).RenderVideoParams,
  'viewer.hotspots': async () => (await import('./viewer-hotspots.js')).ViewerHotspotsParams,
};

export const loadParamsSchema = loadOnce(LOADERS);

export const INFERENCE_PARAM_SLUGS = Object.keys(LOADERS) as InferenceSlug[];
