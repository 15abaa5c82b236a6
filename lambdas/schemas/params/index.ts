import type * as z from 'zod/mini';
import type { InferenceSlug } from '../../domain/catalogue/catalogue.js';
import { DamageDetectParams } from './damage-detect.js';
import { DamageSeverityParams } from './damage-severity.js';
import { DashboardReadParams } from './dashboard-read.js';
import { DocumentReadParams } from './document-read.js';
import { EngineDetectParams } from './engine-detect.js';
import { PartsDecomposeParams } from './parts-decompose.js';
import { PartsRecognizeParams } from './parts-recognize.js';
import { PartsSegmentParams } from './parts-segment.js';
import { PlateReadParams } from './plate-read.js';
import { PricingRepairParams } from './pricing-repair.js';
import { PricingVehicleParams } from './pricing-vehicle.js';
import { Render360Params } from './render-360.js';
import { RenderBackgroundParams } from './render-background.js';
import { RenderEnhanceParams } from './render-enhance.js';
import { RenderPlateParams } from './render-plate.js';
import { RenderVideoParams } from './render-video.js';
import { TireDetectParams } from './tire-detect.js';
import { TireReadParams } from './tire-read.js';
import { VehicleAnalyzeParams } from './vehicle-analyze.js';
import { VehicleIdentifyParams } from './vehicle-identify.js';
import { VehicleSegmentParams } from './vehicle-segment.js';
import { VideoOnboardParams } from './video-onboard.js';
import { ViewerHotspotsParams } from './viewer-hotspots.js';
import { VinReadParams } from './vin-read.js';

/**
 * Endpoint parameters, without the input fields themselves (`image`, `audio`, `video`,
 * `images`, `input_ref`, `input_refs`), which the pipeline strips before validating.
 * Every object is strict: an unknown parameter is a 400, never silently ignored.
 */
export type ParamsSchema = z.ZodMiniObject<z.core.$ZodShape, z.core.$strict>;

export const paramSchemas: Record<InferenceSlug, ParamsSchema> = {
  'vehicle.analyze': VehicleAnalyzeParams,
  'vehicle.segment': VehicleSegmentParams,
  'vehicle.identify': VehicleIdentifyParams,
  'vin.read': VinReadParams,
  'plate.read': PlateReadParams,
  'document.read': DocumentReadParams,
  'dashboard.read': DashboardReadParams,
  'engine.detect': EngineDetectParams,
  'video.onboard': VideoOnboardParams,
  'damage.detect': DamageDetectParams,
  'damage.severity': DamageSeverityParams,
  'tire.read': TireReadParams,
  'tire.detect': TireDetectParams,
  'parts.recognize': PartsRecognizeParams,
  'parts.segment': PartsSegmentParams,
  'parts.decompose': PartsDecomposeParams,
  'pricing.vehicle': PricingVehicleParams,
  'pricing.repair': PricingRepairParams,
  'render.background': RenderBackgroundParams,
  'render.enhance': RenderEnhanceParams,
  'render.plate': RenderPlateParams,
  'render.360': Render360Params,
  'render.video': RenderVideoParams,
  'viewer.hotspots': ViewerHotspotsParams,
};

/**
 * A valid, realistic parameter set per endpoint (wire form). Every endpoint but the
 * two pricing ones accepts `{}`; use these for documentation examples and wherever a
 * sample job must be built without a client request (e.g. the webhook test event).
 */
export const exampleParams: Record<InferenceSlug, Record<string, unknown>> = {
  'vehicle.analyze': { max_vehicles: 3 },
  'vehicle.segment': { output: 'both' },
  'vehicle.identify': { top_k: 3, country: 'DE' },
  'vin.read': { validate_checksum: true },
  'plate.read': { country: 'DE', return_crops: true },
  'document.read': { document_type: 'registration_certificate', country: 'DE' },
  'dashboard.read': { odometer_unit: 'km' },
  'engine.detect': { engine_type: 'diesel' },
  'video.onboard': { frame_count: 8 },
  'damage.detect': { min_confidence: 0.5 },
  'damage.severity': { include_repair_actions: true },
  'tire.read': { decode_dot: true },
  'tire.detect': { legal_minimum_mm: 1.6 },
  'parts.recognize': { max_parts: 20 },
  'parts.segment': { output: 'both' },
  'parts.decompose': { return_layers: true },
  'pricing.vehicle': { make: 'Volkswagen', model: 'Golf', year: 2021, mileage_km: 48000, country: 'DE' },
  'pricing.repair': {
    damages: [
      { part: 'front_bumper', type: 'scratch', severity: 'minor' },
      { part: 'front_left_door', type: 'dent', severity: 'moderate' },
    ],
    parts: [{ part: 'left_headlight', action: 'replace' }],
    country: 'DE',
  },
  'render.background': { background: 'default', aspect_ratio: '4:3', return_cutout: true, traceability: 'stock-4711' },
  'render.enhance': { upscale: 2 },
  'render.plate': { mode: 'blur' },
  'render.360': { direction: 'clockwise' },
  'render.video': { duration_seconds: 15, music: 'upbeat' },
  'viewer.hotspots': { max_hotspots: 8 },
};

export {
  DamageDetectParams,
  DamageSeverityParams,
  DashboardReadParams,
  DocumentReadParams,
  EngineDetectParams,
  PartsDecomposeParams,
  PartsRecognizeParams,
  PartsSegmentParams,
  PlateReadParams,
  PricingRepairParams,
  PricingVehicleParams,
  Render360Params,
  RenderBackgroundParams,
  RenderEnhanceParams,
  RenderPlateParams,
  RenderVideoParams,
  TireDetectParams,
  TireReadParams,
  VehicleAnalyzeParams,
  VehicleIdentifyParams,
  VehicleSegmentParams,
  VideoOnboardParams,
  ViewerHotspotsParams,
  VinReadParams,
};
