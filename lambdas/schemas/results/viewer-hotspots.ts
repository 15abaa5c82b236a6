import * as z from 'zod';
import { AssetFilename, AssetIndex, Confidence, NeedsReview, Ratio } from './common.js';
import { DamageType, PartKey } from './vocabulary.js';

export const HOTSPOT_FEATURES = ['alloy_wheels', 'panoramic_roof', 'led_headlights', 'roof_rails', 'tow_bar', 'parking_sensors', 'sport_exhaust'] as const;

const Hotspot = z.object({
  id: z
    .string()
    .regex(/^hs_\d+$/)
    .describe('Identifier referenced by `frames[].anchors[].hotspot_id`'),
  kind: z.enum(['damage', 'feature']),
  label: z.string().describe('Text for the hotspot bubble'),
  part: PartKey,
  damage_type: DamageType.nullable().describe('Set for `kind: damage`, null for features'),
  feature: z.enum(HOTSPOT_FEATURES).nullable().describe('Set for `kind: feature`, null for damage'),
  confidence: Confidence,
});

const Anchor = z.object({
  hotspot_id: z.string().regex(/^hs_\d+$/),
  x: Ratio.describe('Horizontal position in the frame, 0 = left edge'),
  y: Ratio.describe('Vertical position in the frame, 0 = top edge'),
});

const Frame = z.object({
  index: AssetIndex,
  filename: AssetFilename,
  angle_degrees: z.number().min(0).lt(360).describe('Estimated camera angle: 0 = front, 90 = right side'),
  anchors: z.array(Anchor).describe('Hotspots visible in this frame and where to draw them'),
});

export const ViewerHotspotsResult = z.object({
  hotspots: z.array(Hotspot).describe('Hotspots placed; empty when nothing worth showing was found'),
  frames: z.array(Frame).describe('One entry per input image, in input order'),
  needs_review: NeedsReview,
});
export type ViewerHotspotsResult = z.infer<typeof ViewerHotspotsResult>;
