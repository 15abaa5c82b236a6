import type { ExteriorViewpoint } from '../schemas/results/vocabulary.js';

/** Where around the car each viewpoint looks from, as results report a camera angle: 0 = front, 90 = right side. */
export const VIEWPOINT_ANGLE: Readonly<Record<ExteriorViewpoint, number>> = {
  front: 0,
  front_right: 45,
  right: 90,
  rear_right: 135,
  rear: 180,
  rear_left: 225,
  left: 270,
  front_left: 315,
};
