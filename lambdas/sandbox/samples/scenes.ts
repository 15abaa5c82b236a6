import type { ENGINE_FINDINGS } from '../../schemas/results/engine-detect.js';
import type {
  BodyType,
  ColorName,
  DamageType,
  ExteriorViewpoint,
  PartKey,
  Severity,
} from '../../schemas/results/vocabulary.js';
import { checkDigit } from '../vin.js';
import { type CarView, carEnd, carSide, mirroredSide } from './car-views.js';
import { boxAround, ellipse, type PixelBox, type Point } from './shapes.js';
import type { MonoLine } from './text-boxes.js';

/**
 * The scene descriptions of the repository's sample inputs (`samples/`). `npm run samples:make`
 * draws each sample from its scene, and the test-mode backend answers every endpoint on a sample
 * from the same scene (docs/test-fixtures.md): the truth of a fixture is what was drawn.
 */

/** The one car every picture shows. */
export const SAMPLE_VEHICLE = {
  make: 'Volkswagen',
  model: 'Golf',
  generation: 'Mk8',
  year: 2021,
  bodyType: 'hatchback' as BodyType,
  color: { name: 'red' as ColorName, hex: '#B02A22' },
  plate: 'AIS 24 PL',
  /** a WVW (Volkswagen, Germany) VIN of model year 2021 (`M`), plant `W`, with its check digit */
  vin: withCheckDigit('WVWZZZCD0MW418263'),
  fuel: 'petrol',
  engineCapacityCc: 1498,
  powerKw: 110,
} as const;

function withCheckDigit(draft: string): string {
  return `${draft.slice(0, 8)}${checkDigit(draft)}${draft.slice(9)}`;
}

export interface DrawnDamage {
  part: PartKey;
  type: DamageType;
  severity: Severity;
  /** the drawn mark: a stroke's points (`stroke` wide) or a filled outline */
  shape: { kind: 'stroke'; points: Point[]; stroke: number } | { kind: 'fill'; outline: Point[] };
}

export function damageBox(damage: DrawnDamage): PixelBox {
  return damage.shape.kind === 'stroke'
    ? boxAround([damage.shape.points], damage.shape.stroke / 2)
    : boxAround([damage.shape.outline]);
}

interface ImageSample {
  file: string;
  contentType: 'image/jpeg';
  width: number;
  height: number;
  /** where the picture was taken, as vehicle.analyze reports it */
  scene: 'outdoor' | 'indoor';
}

export interface CarPhotoSample extends ImageSample {
  kind: 'car_photo';
  view: CarView;
  damages: DrawnDamage[];
}

export interface TireSample extends ImageSample {
  kind: 'tire_photo';
  center: Point;
  radius: number;
  size: {
    text: string;
    widthMm: number;
    aspectRatio: number;
    rimDiameterIn: number;
    loadIndex: number;
    speedRating: string;
  };
  dot: { text: string; plantCode: string; week: number; year: number };
  /** the tread blocks drawn around the rim are this deep */
  treadDepthMm: number;
}

export interface VinLabelSample extends ImageSample {
  kind: 'vin_label';
  heading: string;
  vin: MonoLine;
  footer: string;
}

/** One printed field of a document: its result key, printed label and value. */
export interface DocumentRow {
  key: string;
  label: string;
  value: string;
}

export interface DocumentSample extends ImageSample {
  kind: 'document';
  documentType: 'registration_certificate';
  title: string;
  fields: (DocumentRow & { line: MonoLine; labelBaseline: number })[];
}

export interface EngineSample {
  kind: 'engine_audio';
  file: string;
  contentType: 'audio/wav';
  sampleRate: number;
  durationSeconds: number;
  engineType: 'petrol';
  cylinders: number;
  idleRpm: number;
  findings: { type: (typeof ENGINE_FINDINGS)[number]; severity: Severity; startSeconds: number; endSeconds: number }[];
}

export interface WalkaroundSample {
  kind: 'walkaround_video';
  file: string;
  contentType: 'video/mp4';
  width: number;
  height: number;
  fps: number;
  durationSeconds: number;
  /** the strip the camera pans across, left to right, over the whole clip */
  strip: { width: number; height: number; views: CarView[]; damages: DrawnDamage[] };
  /** when each side of the car is centred in the frame */
  views: { viewpoint: ExteriorViewpoint; atSeconds: number }[];
}

export type Sample = CarPhotoSample | TireSample | VinLabelSample | DocumentSample | EngineSample | WalkaroundSample;

/** The scratch every side view of the car carries on its front door, `length` the car's length. */
export function doorScratch(x: number, belt: number, length: number, stroke: number): DrawnDamage {
  const at = (dx: number, dy: number): Point => [x + length * dx, belt + length * dy];
  return {
    part: 'front_right_door',
    type: 'scratch',
    severity: 'minor',
    shape: { kind: 'stroke', points: [at(0.62, 0.07), at(0.67, 0.1), at(0.635, 0.12), at(0.675, 0.145)], stroke },
  };
}

const CAR_FRONT = carEnd(400, 520, 560, 'front');

/** A street scene: the car from the front, its plate the largest thing in view. */
export const CAR: CarPhotoSample = {
  kind: 'car_photo',
  file: 'car.jpg',
  contentType: 'image/jpeg',
  width: 800,
  height: 600,
  scene: 'outdoor',
  view: CAR_FRONT.view,
  damages: [],
};

const DAMAGED_SIDE = carSide(90, 400, 620);

/** The car's right side with a scratched front door, a dented rear door and rust over the rear wheel. */
export const DAMAGED: CarPhotoSample = (() => {
  const { x, belt, length: l } = DAMAGED_SIDE.layout;
  return {
    kind: 'car_photo',
    file: 'damaged.jpg',
    contentType: 'image/jpeg',
    width: 800,
    height: 450,
    scene: 'outdoor',
    view: DAMAGED_SIDE.view,
    damages: [
      doorScratch(x, belt, l, l * 0.006),
      {
        part: 'rear_right_door',
        type: 'dent',
        severity: 'moderate',
        shape: { kind: 'fill', outline: ellipse(x + l * 0.36, belt + l * 0.12, l * 0.05, l * 0.035) },
      },
      {
        part: 'rear_right_quarter_panel',
        type: 'rust',
        severity: 'moderate',
        shape: { kind: 'fill', outline: ellipse(x + l * 0.1, belt + l * 0.125, l * 0.045, l * 0.028) },
      },
    ],
  };
})();

/** A tyre's sidewall, its size and DOT code written around it. */
export const TIRE: TireSample = {
  kind: 'tire_photo',
  file: 'tire.jpg',
  contentType: 'image/jpeg',
  width: 600,
  height: 600,
  scene: 'outdoor',
  center: [300, 300],
  radius: 290,
  size: { text: '205/55 R16 91V', widthMm: 205, aspectRatio: 55, rimDiameterIn: 16, loadIndex: 91, speedRating: 'V' },
  dot: { text: 'DOT U2LL LMLR 2423', plantCode: 'U2', week: 24, year: 2023 },
  treadDepthMm: 6.5,
};

/** The VIN sticker in the driver's door jamb. */
export const VIN_LABEL: VinLabelSample = {
  kind: 'vin_label',
  file: 'vin.jpg',
  contentType: 'image/jpeg',
  width: 640,
  height: 320,
  scene: 'outdoor',
  heading: 'VEHICLE IDENTIFICATION NUMBER',
  vin: { text: SAMPLE_VEHICLE.vin, x: 64, baseline: 164, size: 36, letterSpacing: 2 },
  footer: `${SAMPLE_VEHICLE.make.toUpperCase()} AG · 03/${SAMPLE_VEHICLE.year} · MADE IN GERMANY`,
};

/** A registration certificate for the car, one field per line, values in a monospaced face. */
export const REGISTRATION: DocumentSample = (() => {
  const rows: DocumentRow[] = [
    { key: 'plate', label: 'Registration number', value: SAMPLE_VEHICLE.plate },
    { key: 'vin', label: 'Vehicle identification number', value: SAMPLE_VEHICLE.vin },
    { key: 'make', label: 'Make', value: SAMPLE_VEHICLE.make },
    { key: 'model', label: 'Model', value: SAMPLE_VEHICLE.model },
    { key: 'first_registration_date', label: 'Date of first registration', value: '2021-03-15' },
    { key: 'holder_name', label: 'Registered keeper', value: 'Alex Sample' },
    { key: 'fuel_type', label: 'Fuel', value: SAMPLE_VEHICLE.fuel },
    { key: 'engine_capacity_cc', label: 'Engine capacity (cm³)', value: String(SAMPLE_VEHICLE.engineCapacityCc) },
    { key: 'power_kw', label: 'Power (kW)', value: String(SAMPLE_VEHICLE.powerKw) },
    { key: 'color', label: 'Colour', value: SAMPLE_VEHICLE.color.name },
  ];
  return {
    kind: 'document',
    file: 'registration.jpg',
    contentType: 'image/jpeg',
    width: 800,
    height: 560,
    scene: 'indoor',
    documentType: 'registration_certificate',
    title: 'VEHICLE REGISTRATION CERTIFICATE',
    fields: rows.map((row, i) => ({
      ...row,
      labelBaseline: 124 + i * 42,
      line: { text: row.value, x: 380, baseline: 124 + i * 42, size: 22, letterSpacing: 0 },
    })),
  };
})();

/**
 * A 6-second phone recording of the car idling at 780 rpm (four cylinders, four strokes: 26 firings
 * a second), with a knock from 2 s to 4 s.
 */
export const ENGINE: EngineSample = {
  kind: 'engine_audio',
  file: 'engine.wav',
  contentType: 'audio/wav',
  sampleRate: 8000,
  durationSeconds: 6,
  engineType: 'petrol',
  cylinders: 4,
  idleRpm: 780,
  findings: [{ type: 'knocking', severity: 'moderate', startSeconds: 2, endSeconds: 4 }],
};

const STRIP_FRONT = carEnd(320, 320, 330, 'front');
const STRIP_SIDE = carSide(720, 320, 560);
const STRIP_REAR = carEnd(1600, 320, 330, 'rear');
/** The other side is the first side drawn at x = 1000 and mirrored about x = 1720. */
export const STRIP_MIRROR_AXIS = 3440;
const STRIP_OTHER_SIDE = carSide(1000, 320, 560);

/** A 6-second pan along one strip that shows the car's front, right side, rear and left side. */
export const WALKAROUND: WalkaroundSample = (() => {
  const frameWidth = 640;
  const stripWidth = 2560;
  const durationSeconds = 6;
  // the frame's left edge moves at (strip - frame) / duration pixels a second
  const centredAt = (x: number) =>
    Math.round(((x - frameWidth / 2) / ((stripWidth - frameWidth) / durationSeconds)) * 100) / 100;
  const sideCentre = STRIP_SIDE.layout.x + STRIP_SIDE.layout.length / 2;
  const otherCentre = STRIP_MIRROR_AXIS - (STRIP_OTHER_SIDE.layout.x + STRIP_OTHER_SIDE.layout.length / 2);
  const otherScratch = doorScratch(
    STRIP_OTHER_SIDE.layout.x,
    STRIP_OTHER_SIDE.layout.belt,
    STRIP_OTHER_SIDE.layout.length,
    STRIP_OTHER_SIDE.layout.length * 0.004,
  );
  return {
    kind: 'walkaround_video',
    file: 'walkaround.mp4',
    contentType: 'video/mp4',
    width: frameWidth,
    height: 360,
    fps: 15,
    durationSeconds,
    strip: {
      width: stripWidth,
      height: 360,
      views: [
        STRIP_FRONT.view,
        STRIP_SIDE.view,
        STRIP_REAR.view,
        mirroredSide(STRIP_OTHER_SIDE.view, STRIP_MIRROR_AXIS),
      ],
      damages: [
        doorScratch(
          STRIP_SIDE.layout.x,
          STRIP_SIDE.layout.belt,
          STRIP_SIDE.layout.length,
          STRIP_SIDE.layout.length * 0.004,
        ),
        {
          ...otherScratch,
          part: 'front_left_door',
          shape:
            otherScratch.shape.kind === 'stroke'
              ? {
                  ...otherScratch.shape,
                  points: otherScratch.shape.points.map(([px, py]) => [STRIP_MIRROR_AXIS - px, py] as const),
                }
              : otherScratch.shape,
        },
      ],
    },
    views: [
      { viewpoint: 'front', atSeconds: centredAt(STRIP_FRONT.layout.x + STRIP_FRONT.layout.width / 2) },
      { viewpoint: 'right', atSeconds: centredAt(sideCentre) },
      { viewpoint: 'rear', atSeconds: centredAt(STRIP_REAR.layout.x + STRIP_REAR.layout.width / 2) },
      { viewpoint: 'left', atSeconds: centredAt(otherCentre) },
    ],
  };
})();

/** Layouts `npm run samples:make` draws from (the same numbers as the views above). */
export const LAYOUTS = {
  carFront: CAR_FRONT.layout,
  damagedSide: DAMAGED_SIDE.layout,
  stripFront: STRIP_FRONT.layout,
  stripSide: STRIP_SIDE.layout,
  stripRear: STRIP_REAR.layout,
  stripOtherSide: STRIP_OTHER_SIDE.layout,
} as const;

export const SAMPLES: readonly Sample[] = [CAR, DAMAGED, TIRE, VIN_LABEL, REGISTRATION, ENGINE, WALKAROUND];
