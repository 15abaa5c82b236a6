import { ViewerHotspotsParams } from '../schemas/params/viewer-hotspots.js';
import { HOTSPOT_FEATURES } from '../schemas/results/viewer-hotspots.js';
import { type DamageType, EXTERIOR_VIEWPOINTS, type PartKey } from '../schemas/results/vocabulary.js';
import { DAMAGE_TYPES_BY_CATEGORY, PARTS, partsVisibleFrom } from './parts-catalogue.js';
import { round } from './prng.js';
import { fixtureConfidence } from './samples/readings.js';
import { type CarPhotoSample, damageBox, type Sample } from './samples/scenes.js';
import { boxAround, normalised, type PixelBox } from './samples/shapes.js';
import { byConfidence, defineSandboxModel, needsReview, type SandboxContext } from './support.js';
import type { SandboxAsset } from './types.js';
import { VIEWPOINT_ANGLE } from './viewpoint-angles.js';

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
  const samples = context.assets.map((asset) => context.sample(asset));
  if (samples.some((sample) => sample !== null)) {
    return { result: sampleHotspots(context, samples), billableUnits: 1 };
  }
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

interface DrawnSpot {
  kind: 'damage' | 'feature';
  label: string;
  part: PartKey;
  damage_type: DamageType | null;
  feature: Feature | null;
  /** where the spot is drawn in each sample photo that shows it, by input index */
  seenAt: Map<number, PixelBox>;
}

/**
 * The hotspots of a set holding sample photos, from their scenes (docs/test-fixtures.md): a damage
 * or a selling feature is placed only where a photo draws it, and anchored in each photo that shows
 * it at the middle of what was drawn. A frame the backend does not recognise shows nothing it knows.
 */
function sampleHotspots(context: SandboxContext<ViewerHotspotsParams>, samples: (Sample | null)[]) {
  const { params } = context;
  const spots = new Map<string, DrawnSpot>();
  const see = (key: string, spot: Omit<DrawnSpot, 'seenAt'>, index: number, box: PixelBox) => {
    const known = spots.get(key) ?? { ...spot, seenAt: new Map<number, PixelBox>() };
    known.seenAt.set(index, box);
    spots.set(key, known);
  };
  const photos = context.assets.flatMap((asset, i) => {
    const sample = samples[i];
    return sample?.kind === 'car_photo' ? [{ asset, sample }] : [];
  });
  for (const { asset, sample } of context.empty ? [] : photos) {
    if (params.include_damages)
      for (const damage of sample.damages)
        see(
          `damage:${damage.part}:${damage.type}`,
          {
            kind: 'damage',
            label: `${damage.type.replaceAll('_', ' ')} on ${PARTS[damage.part].label.toLowerCase()}`,
            part: damage.part,
            damage_type: damage.type,
            feature: null,
          },
          asset.index,
          damageBox(damage),
        );
    if (params.include_features)
      for (const { feature, part } of sample.view.features) {
        const drawn = sample.view.parts.find((candidate) => candidate.part === part);
        if (!drawn) throw new Error(`sample ${sample.file} shows ${feature} on ${part}, which it does not draw`);
        see(
          `feature:${feature}:${part}`,
          { kind: 'feature', label: FEATURE_LABELS[feature], part, damage_type: null, feature },
          asset.index,
          boxAround([drawn.outline]),
        );
      }
  }
  const confidence = fixtureConfidence(context);
  // every spot of a fixture has the same confidence: the threshold keeps all of them or none
  const kept = context.passes(confidence, params.min_confidence) ? [...spots.values()] : [];
  const placed = kept.slice(0, params.max_hotspots).map((spot, i) => ({ id: `hs_${i + 1}`, ...spot, confidence }));
  const step = 360 / context.assets.length;
  const frames = context.assets.map((asset: SandboxAsset, i) => {
    const sample = samples[i];
    const photo = sample?.kind === 'car_photo' ? sample : null;
    return {
      index: asset.index,
      filename: asset.filename,
      angle_degrees: photo ? VIEWPOINT_ANGLE[photo.view.viewpoint] : round(step * asset.index, 1) % 360,
      anchors: photo ? anchorsIn(photo, asset.index, placed) : [],
    };
  });
  return {
    hotspots: placed.map(({ seenAt: _seenAt, ...spot }) => spot),
    frames,
    needs_review: needsReview(placed.map((spot) => spot.confidence)),
  };
}

function anchorsIn(photo: CarPhotoSample, index: number, spots: readonly (DrawnSpot & { id: string })[]) {
  return spots.flatMap((spot) => {
    const box = spot.seenAt.get(index);
    if (!box) return [];
    const { x, y, width, height } = normalised(box, photo.width, photo.height);
    return [{ hotspot_id: spot.id, x: round(x + width / 2, 4), y: round(y + height / 2, 4) }];
  });
}
