import type { HOTSPOT_FEATURES } from '../../schemas/results/viewer-hotspots.js';
import type { ExteriorViewpoint, PartKey } from '../../schemas/results/vocabulary.js';
import { boxAround, circle, corners, mirrored, type PixelBox, type Point, rectangle } from './shapes.js';

/**
 * The sample car seen from one side: where each of its parts was drawn. `npm run samples:make`
 * draws from the `layout` numbers, and the test-mode backend answers from the `parts` outlines
 * made of the same numbers.
 */
export interface DrawnPart {
  part: PartKey;
  outline: Point[];
}

/** A selling feature the drawing shows on one of the parts drawn in the same view. */
export interface DrawnFeature {
  feature: (typeof HOTSPOT_FEATURES)[number];
  part: PartKey;
}

export interface CarView {
  viewpoint: ExteriorViewpoint;
  /** outlines whose union is the car: body, cabin and tyres (not its shadow) */
  silhouette: Point[][];
  parts: DrawnPart[];
  /** the licence plate's face, where one is readable */
  plate: PixelBox | null;
  /** selling features the picture shows, each on a drawn part */
  features: DrawnFeature[];
}

export interface CarEndLayout {
  x: number;
  width: number;
  /** top of the body (the bumper line) */
  body: number;
  ground: number;
  cabin: { base: number; top: number; glass: number };
  /** image-left first */
  tyres: readonly [PixelBox, PixelBox];
  lamps: readonly [PixelBox, PixelBox];
  grille: PixelBox | null;
  plate: PixelBox;
  /** the dark band along the bottom of the bumper */
  band: PixelBox;
  cabinOutline: Point[];
  glassOutline: Point[];
}

const FRONT_CABIN = { base: 0.16, top: 0.2, glass: 0.01 };
const REAR_CABIN = { base: 0.14, top: 0.22, glass: 0.03 };
/** A plate is 22 % as tall as it is wide. */
export const PLATE_ASPECT = 0.22;

/** The car from the front or from behind, centred on `cx`, standing on `ground`, `width` wide. */
export function carEnd(
  cx: number,
  ground: number,
  width: number,
  end: 'front' | 'rear',
): {
  layout: CarEndLayout;
  view: CarView;
} {
  const w = width;
  const x = cx - w / 2;
  const body = ground - w * 0.36;
  const cabin = end === 'front' ? FRONT_CABIN : REAR_CABIN;
  const { base, top, glass } = cabin;
  const tyres = [
    rectangle(x + w * 0.02, ground - w * 0.1, w * 0.13, w * 0.12),
    rectangle(x + w * 0.85, ground - w * 0.1, w * 0.13, w * 0.12),
  ] as const;
  const lamps =
    end === 'front'
      ? ([
          rectangle(x + w * 0.06, body + w * 0.05, w * 0.18, w * 0.065),
          rectangle(x + w * 0.76, body + w * 0.05, w * 0.18, w * 0.065),
        ] as const)
      : ([
          rectangle(x + w * 0.04, body + w * 0.04, w * 0.2, w * 0.06),
          rectangle(x + w * 0.76, body + w * 0.04, w * 0.2, w * 0.06),
        ] as const);
  const plateWidth = w * 0.38;
  const plate = rectangle(
    x + w * 0.31,
    body + w * (end === 'front' ? 0.168 : 0.06),
    plateWidth,
    plateWidth * PLATE_ASPECT,
  );
  const grille = end === 'front' ? rectangle(x + w * 0.3, body + w * 0.05, w * 0.4, w * 0.07) : null;
  // the roof line is a quadratic curve whose highest point is halfway between its control point and its ends
  const cabinOutline: Point[] = [
    [x + w * base, body],
    [x + w * (base + 0.1), body - w * top],
    [cx, body - w * (top + 0.02)],
    [x + w * (0.9 - base), body - w * top],
    [x + w * (1 - base), body],
  ];
  const glassOutline: Point[] = [
    [x + w * (base + 0.06), body - w * glass],
    [x + w * (base + 0.12), body - w * (top - 0.04)],
    [cx, body - w * (top - 0.025)],
    [x + w * (0.88 - base), body - w * (top - 0.04)],
    [x + w * (0.94 - base), body - w * glass],
  ];
  const bodyBox = rectangle(x, body, w, w * 0.28);
  const band = rectangle(x + w * 0.02, body + w * 0.17, w * 0.96, w * 0.1);
  const lower = rectangle(x, body + w * 0.14, w, w * 0.14);
  // seen from the front the car's right side is on the image's left; from behind, its left
  const [imageLeft, imageRight] = end === 'front' ? (['right', 'left'] as const) : (['left', 'right'] as const);
  const parts: DrawnPart[] =
    end === 'front'
      ? [
          { part: 'windshield', outline: glassOutline },
          { part: 'front_bumper', outline: corners(lower) },
          { part: 'grille', outline: corners(grille as PixelBox) },
          { part: `${imageLeft}_headlight`, outline: corners(lamps[0]) },
          { part: `${imageRight}_headlight`, outline: corners(lamps[1]) },
          { part: 'front_license_plate', outline: corners(plate) },
          { part: `front_${imageLeft}_wheel`, outline: corners(tyres[0]) },
          { part: `front_${imageRight}_wheel`, outline: corners(tyres[1]) },
        ]
      : [
          { part: 'rear_window', outline: glassOutline },
          { part: 'tailgate', outline: corners(rectangle(x + w * 0.26, body, w * 0.48, w * 0.14)) },
          { part: 'rear_bumper', outline: corners(lower) },
          { part: `${imageLeft}_taillight`, outline: corners(lamps[0]) },
          { part: `${imageRight}_taillight`, outline: corners(lamps[1]) },
          { part: 'rear_license_plate', outline: corners(plate) },
          { part: `rear_${imageLeft}_wheel`, outline: corners(tyres[0]) },
          { part: `rear_${imageRight}_wheel`, outline: corners(tyres[1]) },
        ];
  return {
    layout: { x, width: w, body, ground, cabin, tyres, lamps, grille, plate, band, cabinOutline, glassOutline },
    view: {
      viewpoint: end,
      silhouette: [corners(bodyBox), cabinOutline, corners(tyres[0]), corners(tyres[1])],
      parts,
      plate,
      // seen end-on a wheel is only its tread: no rim, so nothing shows its kind
      features: [],
    },
  };
}

export interface CarSideLayout {
  x: number;
  length: number;
  ground: number;
  sill: number;
  belt: number;
  roof: number;
  wheels: readonly { cx: number; cy: number; r: number }[];
  bodyOutline: Point[];
}

/**
 * The car from its right side, front to the image's right, `length` long from `x`. (The walk-around's
 * other side is this view mirrored: `mirroredSide`.)
 */
export function carSide(x: number, ground: number, length: number): { layout: CarSideLayout; view: CarView } {
  const l = length;
  const sill = ground - l * 0.09;
  const belt = ground - l * 0.26;
  const roof = ground - l * 0.4;
  const bodyOutline: Point[] = [
    [x, sill],
    [x, belt + l * 0.03],
    [x + l * 0.04, belt],
    [x + l * 0.2, belt],
    [x + l * 0.32, roof],
    [x + l * 0.64, roof],
    [x + l * 0.76, belt],
    [x + l * 0.95, belt + l * 0.02],
    [x + l, belt + l * 0.09],
    [x + l, sill],
  ];
  const wheels = [0.2, 0.8].map((at) => ({ cx: x + l * at, cy: sill + l * 0.005, r: l * 0.085 }));
  const [rear, front] = wheels as [{ cx: number; cy: number; r: number }, { cx: number; cy: number; r: number }];
  const windowTop = roof + l * 0.02;
  const parts: DrawnPart[] = [
    {
      part: 'rear_right_quarter_panel',
      outline: [
        [x, sill],
        [x, belt + l * 0.03],
        [x + l * 0.04, belt],
        [x + l * 0.2, belt],
        [x + l * 0.23, belt - l * 0.005],
        [x + l * 0.23, sill],
      ],
    },
    {
      part: 'rear_right_door',
      outline: [
        [x + l * 0.23, belt - l * 0.005],
        [x + l * 0.33, windowTop],
        [x + l * 0.475, windowTop],
        [x + l * 0.475, sill],
        [x + l * 0.23, sill],
      ],
    },
    {
      part: 'front_right_door',
      outline: [
        [x + l * 0.475, windowTop],
        [x + l * 0.63, windowTop],
        [x + l * 0.74, belt],
        [x + l * 0.74, sill],
        [x + l * 0.475, sill],
      ],
    },
    {
      part: 'front_right_fender',
      outline: [
        [x + l * 0.74, belt],
        [x + l * 0.95, belt + l * 0.02],
        [x + l * 0.965, belt + l * 0.04],
        [x + l * 0.965, sill],
        [x + l * 0.74, sill],
      ],
    },
    { part: 'right_taillight', outline: corners(rectangle(x, belt + l * 0.04, l * 0.025, l * 0.03)) },
    { part: 'right_headlight', outline: corners(rectangle(x + l * 0.965, belt + l * 0.04, l * 0.035, l * 0.03)) },
    { part: 'rear_right_wheel', outline: circle(rear.cx, rear.cy, rear.r) },
    { part: 'front_right_wheel', outline: circle(front.cx, front.cy, front.r) },
  ];
  return {
    layout: { x, length: l, ground, sill, belt, roof, wheels, bodyOutline },
    view: {
      viewpoint: 'right',
      silhouette: [bodyOutline, ...wheels.map((wheel) => circle(wheel.cx, wheel.cy, wheel.r))],
      parts,
      plate: null,
      // `npm run samples:make` draws each wheel with a light five-spoke rim
      features: [
        { feature: 'alloy_wheels', part: 'rear_right_wheel' },
        { feature: 'alloy_wheels', part: 'front_right_wheel' },
      ],
    },
  };
}

/** A right-side view mirrored about `x = axis / 2`: the car's left side, front to the image's left. */
export function mirroredSide(view: CarView, axis: number): CarView {
  return {
    viewpoint: 'left',
    silhouette: view.silhouette.map((outline) => mirrored(outline, axis)),
    parts: view.parts.map(({ part, outline }) => ({
      part: part.replace('right', 'left') as PartKey,
      outline: mirrored(outline, axis),
    })),
    plate: null,
    features: view.features.map(({ feature, part }) => ({ feature, part: part.replace('right', 'left') as PartKey })),
  };
}

/** The box around the whole car. */
export function carBox(view: CarView): PixelBox {
  return boxAround(view.silhouette);
}
