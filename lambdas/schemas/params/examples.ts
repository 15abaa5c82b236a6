import type { InferenceSlug } from '../../domain/catalogue/catalogue.js';

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
