import * as z from 'zod/mini';
import { describe } from '../zod.js';
import { AssetFilename, AssetIndex, Confidence, NeedsReview, Ratio } from './common.js';
import { DamageType, PartKey } from './vocabulary.js';

export const HOTSPOT_FEATURES = [
  'alloy_wheels',
  'panoramic_roof',
  'led_headlights',
  'roof_rails',
  'tow_bar',
  'parking_sensors',
  'sport_exhaust',
] as const;

const Hotspot = z.object({
  id: describe(z.string().check(z.regex(/^hs_\d+$/)), 'Identifier referenced by `frames[].anchors[].hotspot_id`'),
  kind: z.enum(['damage', 'feature']),
  label: describe(z.string(), 'Text for the hotspot bubble'),
  part: PartKey,
  damage_type: describe(z.nullable(DamageType), 'Set for `kind: damage`, null for features'),
  feature: describe(z.nullable(z.enum(HOTSPOT_FEATURES)), 'Set for `kind: feature`, null for damage'),
  confidence: Confidence,
});

const Anchor = z.object({
  hotspot_id: z.string().check(z.regex(/^hs_\d+$/)),
  x: describe(Ratio, 'Horizontal position in the frame, 0 = left edge'),
  y: describe(Ratio, 'Vertical position in the frame, 0 = top edge'),
});

const Frame = z.object({
  index: AssetIndex,
  filename: AssetFilename,
  angle_degrees: describe(
    z.number().check(z.minimum(0), z.lt(360)),
    'Estimated camera angle: 0 = front, 90 = right side',
  ),
  anchors: describe(z.array(Anchor), 'Hotspots visible in this frame and where to draw them'),
});

export const ViewerHotspotsResult = z.object({
  hotspots: describe(z.array(Hotspot), 'Hotspots placed; empty when nothing worth showing was found'),
  frames: describe(z.array(Frame), 'One entry per input image, in input order'),
  needs_review: NeedsReview,
});
export type ViewerHotspotsResult = z.infer<typeof ViewerHotspotsResult>;
