import { billableSeconds, CATALOGUE } from '../domain/catalogue/catalogue.js';
import { VideoOnboardParams } from '../schemas/params/video-onboard.js';
import { EXTERIOR_VIEWPOINTS, type ExteriorViewpoint } from '../schemas/results/vocabulary.js';
import { carPhoto } from './pictures.js';
import { generatePlate } from './plates.js';
import { dimensionsFor, hexToRgb } from './png.js';
import { round } from './prng.js';
import { fixtureConfidence } from './samples/readings.js';
import { SAMPLE_VEHICLE, type WalkaroundSample } from './samples/scenes.js';
import { defineSandboxModel, needsReview, type SandboxContext } from './support.js';
import { COMMON_COLORS, VEHICLE_MODELS } from './vehicles.js';
import { VIEWPOINT_ANGLE } from './viewpoint-angles.js';

/** A walkaround circles the car clockwise from the front. */
const WALKAROUND_ORDER: readonly ExteriorViewpoint[] = [
  'front',
  'front_right',
  'right',
  'rear_right',
  'rear',
  'rear_left',
  'left',
  'front_left',
];

export const videoOnboardModel = defineSandboxModel('video.onboard', VideoOnboardParams, (context) => {
  const { params } = context;
  const rng = context.rng();
  const reserve = CATALOGUE['video.onboard'].reserveUnitsPerAsset;
  const sample = context.sample();
  if (sample?.kind === 'walkaround_video') return sampleWalkaround(context, sample, reserve);
  const duration = rng.float(20, reserve, 1);
  // one video per call (catalogue maxAssets 1), billed per started second
  const billableUnits = billableSeconds(duration, reserve);
  if (context.empty) {
    return {
      result: {
        duration_seconds: duration,
        vehicle: null,
        plate: null,
        frames: [],
        missing_viewpoints: [...EXTERIOR_VIEWPOINTS],
        needs_review: false,
      },
      billableUnits,
    };
  }
  const model = rng.pick(VEHICLE_MODELS);
  const color = rng.pick(COMMON_COLORS);
  const vehicle = {
    make: model.make,
    model: model.model,
    year: rng.int(model.yearFrom, model.yearTo),
    body_type: model.bodyType,
    color,
    confidence: context.confidence(rng),
  };
  const plate = { text: generatePlate(rng, undefined).text, confidence: context.confidence(rng) };
  // walkers often skip a side; keep the order of the walk
  const covered = new Set(rng.sample(WALKAROUND_ORDER, Math.min(params.frame_count, rng.int(5, 8))));
  const views = WALKAROUND_ORDER.filter((view) => covered.has(view));
  const [width, height] = dimensionsFor('16:9');
  const frames = views.map((viewpoint, i) => {
    const angle = (VIEWPOINT_ANGLE[viewpoint] * Math.PI) / 180;
    const scene = {
      width,
      height,
      box: { x: 0.15, y: 0.25, width: 0.7, height: 0.6 },
      body: hexToRgb(color.hex),
      endOn: Math.abs(Math.cos(angle)),
    };
    return {
      viewpoint,
      timestamp_seconds: round(((i + 0.5) / views.length) * duration, 1),
      sharpness: rng.float(0.6, 0.97, 2),
      image: params.return_frames
        ? context.file(`frame-${i}.png`, carPhoto(scene, [120, 130, 140], [70, 75, 70]))
        : null,
    };
  });
  return {
    result: {
      duration_seconds: duration,
      vehicle: params.identify_vehicle ? vehicle : null,
      plate,
      frames,
      missing_viewpoints: EXTERIOR_VIEWPOINTS.filter((view) => !covered.has(view)),
      needs_review: needsReview([vehicle.confidence, plate.confidence]),
    },
    billableUnits,
  };
});

/**
 * The walk-around: 6 s showing the front, the right side, the rear and the left side, each frame
 * taken when that side is centred (at the video's own size); the diagonals are never centred.
 */
function sampleWalkaround(context: SandboxContext<VideoOnboardParams>, sample: WalkaroundSample, reserve: number) {
  const { params } = context;
  const billableUnits = billableSeconds(sample.durationSeconds, reserve);
  const covered = context.empty ? [] : sample.views.slice(0, params.frame_count);
  const seen = new Set(covered.map((view) => view.viewpoint));
  const confidence = fixtureConfidence(context);
  const frames = covered.map((view, i) => {
    const angle = (VIEWPOINT_ANGLE[view.viewpoint] * Math.PI) / 180;
    const scene = {
      width: sample.width,
      height: sample.height,
      box: { x: 0.15, y: 0.25, width: 0.7, height: 0.6 },
      body: hexToRgb(SAMPLE_VEHICLE.color.hex),
      endOn: Math.abs(Math.cos(angle)),
    };
    return {
      viewpoint: view.viewpoint,
      timestamp_seconds: view.atSeconds,
      sharpness: 0.9,
      image: params.return_frames
        ? context.file(`frame-${i}.png`, carPhoto(scene, [156, 199, 234], [109, 111, 114]))
        : null,
    };
  });
  const found = !context.empty;
  return {
    result: {
      duration_seconds: sample.durationSeconds,
      vehicle:
        found && params.identify_vehicle
          ? {
              make: SAMPLE_VEHICLE.make,
              model: SAMPLE_VEHICLE.model,
              year: SAMPLE_VEHICLE.year,
              body_type: SAMPLE_VEHICLE.bodyType,
              color: { name: SAMPLE_VEHICLE.color.name, hex: SAMPLE_VEHICLE.color.hex },
              confidence,
            }
          : null,
      plate: found ? { text: SAMPLE_VEHICLE.plate, confidence } : null,
      frames,
      missing_viewpoints: EXTERIOR_VIEWPOINTS.filter((view) => !seen.has(view)),
      needs_review: found && needsReview([confidence]),
    },
    billableUnits,
  };
}
