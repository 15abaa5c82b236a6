import { ViewerHotspotsParams } from '../schemas/params/viewer-hotspots.js';
import { HOTSPOT_FEATURES } from '../schemas/results/viewer-hotspots.js';
import { EXTERIOR_VIEWPOINTS, type PartKey } from '../schemas/results/vocabulary.js';
import { DAMAGE_TYPES_BY_CATEGORY, PARTS, partsVisibleFrom } from './parts-catalogue.js';
import { round } from './prng.js';
import { byConfidence, defineSandboxModel, needsReview } from './support.js';

type Feature = (typeof HOTSPOT_FEATURES)[number];

const FEATURE_PARTS: Readonly<Record<Feature, PartKey>> = {
  alloy_wheels: 'front_left_wheel',
  panoramic_roof: 'roof',
  led_headlights: 'left_headlight',
  roof_rails: 'roof',
  tow_bar: 'rear_bumper',
  parking_sensors: 'front_bumper',
  sport_exhaust: 'rear_bumper',
};

const FEATURE_LABELS: Readonly<Record<Feature, string>> = {
  alloy_wheels: 'Alloy wheels',
  panoramic_roof: 'Panoramic roof',
  led_headlights: 'LED headlights',
  roof_rails: 'Roof rails',
  tow_bar: 'Tow bar',
  parking_sensors: 'Parking sensors',
  sport_exhaust: 'Sport exhaust',
};

/** Where around the car a part faces: 0 = front, 90 = right side; null for the roof (seen from everywhere). */
const FACE_ANGLE = { front: 0, right: 90, rear: 180, left: 270 } as const;
function azimuthOf(part: PartKey): number | null {
  const faces = PARTS[part].faces.filter((face): face is keyof typeof FACE_ANGLE => face !== 'top');
  if (faces.length === 0) return null;
  const x = faces.reduce((sum, face) => sum + Math.sin((FACE_ANGLE[face] * Math.PI) / 180), 0);
  const y = faces.reduce((sum, face) => sum + Math.cos((FACE_ANGLE[face] * Math.PI) / 180), 0);
  return ((Math.atan2(x, y) * 180) / Math.PI + 360) % 360;
}

/** A hotspot is drawn when its part faces the camera within this angle. */
const VISIBLE_WITHIN_DEGREES = 75;

export const viewerHotspotsModel = defineSandboxModel('viewer.hotspots', ViewerHotspotsParams, (context) => {
  const { params } = context;
  const rng = context.rng();
  const damageSpots =
    params.include_damages && !context.empty
      ? Array.from({ length: rng.int(1, 3) }, () => {
          const part = rng.pick(partsVisibleFrom(rng.pick(EXTERIOR_VIEWPOINTS)));
          const damageType = rng.pick(DAMAGE_TYPES_BY_CATEGORY[PARTS[part].category]);
          return {
            kind: 'damage' as const,
            label: `${damageType.replaceAll('_', ' ')} on ${PARTS[part].label.toLowerCase()}`,
            part,
            damage_type: damageType,
            feature: null,
            confidence: context.confidence(rng, [0.6, 0.97]),
          };
        })
      : [];
  const featureSpots =
    params.include_features && !context.empty
      ? rng.sample(HOTSPOT_FEATURES, rng.int(2, 4)).map((feature) => ({
          kind: 'feature' as const,
          label: FEATURE_LABELS[feature],
          part: FEATURE_PARTS[feature],
          damage_type: null,
          feature,
          confidence: context.confidence(rng),
        }))
      : [];
  const hotspots = byConfidence([...damageSpots, ...featureSpots])
    .filter((spot) => context.passes(spot.confidence, params.min_confidence))
    .slice(0, params.max_hotspots)
    .map((spot, i) => ({ id: `hs_${i + 1}`, ...spot, height: rng.float(0.35, 0.75, 3) }));
  const step = 360 / context.assets.length;
  const frames = context.assets.map((asset) => {
    const angle = round(step * asset.index, 1) % 360;
    const anchors = hotspots.flatMap((spot) => {
      const azimuth = azimuthOf(spot.part);
      if (azimuth === null) return [{ hotspot_id: spot.id, x: 0.5, y: 0.22 }];
      // facing the car, its right-hand side appears on the left of the picture
      const offset = ((azimuth - angle + 540) % 360) - 180;
      if (Math.abs(offset) > VISIBLE_WITHIN_DEGREES) return [];
      return [{ hotspot_id: spot.id, x: round(0.5 - 0.42 * Math.sin((offset * Math.PI) / 180), 3), y: spot.height }];
    });
    return { index: asset.index, filename: asset.filename, angle_degrees: angle, anchors };
  });
  return {
    result: {
      hotspots: hotspots.map(({ height: _height, ...spot }) => spot),
      frames,
      needs_review: needsReview(hotspots.map((spot) => spot.confidence)),
    },
    billableUnits: 1,
  };
});
