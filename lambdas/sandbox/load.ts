// Generated from the endpoint catalogue by tools/endpoint-loaders.ts. Do not edit.
import { loadOnce } from '../domain/kernel/load-once.js';
import type { InferenceSlug, SandboxModel } from './types.js';

/**
 * The test-mode backend: one deterministic sandbox model per inference endpoint, each loaded when first
 * run. A sandbox model module builds its endpoint's parameter and result schemas, so a worker starts
 * without building all 24 (esbuild inlines these modules and runs each on its first import).
 */
const LOADERS: Record<InferenceSlug, () => Promise<SandboxModel>> = {
  'vehicle.analyze': async () => (await import('./vehicle-analyze.js')).vehicleAnalyzeModel,
  'vehicle.segment': async () => (await import('./vehicle-segment.js')).vehicleSegmentModel,
  'vehicle.identify': async () => (await import('./vehicle-identify.js')).vehicleIdentifyModel,
  'vin.read': async () => (await import('./vin-read.js')).vinReadModel,
  'plate.read': async () => (await import('./plate-read.js')).plateReadModel,
  'document.read': async () => (await import('./document-read.js')).documentReadModel,
  'dashboard.read': async () => (await import('./dashboard-read.js')).dashboardReadModel,
  'engine.detect': async () => (await import('./engine-detect.js')).engineDetectModel,
  'video.onboard': async () => (await import('./video-onboard.js')).videoOnboardModel,
  'damage.detect': async () => (await import('./damage-detect.js')).damageDetectModel,
  'damage.severity': async () => (await import('./damage-severity.js')).damageSeverityModel,
  'tire.read': async () => (await import('./tire-read.js')).tireReadModel,
  'tire.detect': async () => (await import('./tire-detect.js')).tireDetectModel,
  'parts.recognize': async () => (await import('./parts-recognize.js')).partsRecognizeModel,
  'parts.segment': async () => (await import('./parts-segment.js')).partsSegmentModel,
  'parts.decompose': async () => (await import('./parts-decompose.js')).partsDecomposeModel,
  'pricing.vehicle': async () => (await import('./pricing-vehicle.js')).pricingVehicleModel,
  'pricing.repair': async () => (await import('./pricing-repair.js')).pricingRepairModel,
  'render.background': async () => (await import('./render-background.js')).renderBackgroundModel,
  'render.enhance': async () => (await import('./render-enhance.js')).renderEnhanceModel,
  'render.plate': async () => (await import('./render-plate.js')).renderPlateModel,
  'render.360': async () => (await import('./render-360.js')).render360Model,
  'render.video': async () => (await import('./render-video.js')).renderVideoModel,
  'viewer.hotspots': async () => (await import('./viewer-hotspots.js')).viewerHotspotsModel,
};

export const loadSandboxModel = loadOnce(LOADERS);

export const SANDBOX_SLUGS = Object.keys(LOADERS) as InferenceSlug[];
