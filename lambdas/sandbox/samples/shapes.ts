import type { BoundingBox } from '../../schemas/results/common.js';

/**
 * Pixel geometry of the sample scenes. The same numbers draw the sample (`npm run samples:make`)
 * and answer for it in test mode, so a box in a fixture is where the thing was drawn.
 */
export type Point = readonly [number, number];

/** A rectangle in pixels, origin top-left. */
export interface PixelBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

export function rectangle(x: number, y: number, width: number, height: number): PixelBox {
  return { x, y, width, height };
}

/** The corners of `box`, clockwise from the top-left, as an outline. */
export function corners(box: PixelBox): Point[] {
  return [
    [box.x, box.y],
    [box.x + box.width, box.y],
    [box.x + box.width, box.y + box.height],
    [box.x, box.y + box.height],
  ];
}

/** A circle as a 48-sided outline, close enough for masks and boxes. */
export function circle(cx: number, cy: number, r: number): Point[] {
  return Array.from({ length: 48 }, (_, i) => {
    const angle = (i / 48) * 2 * Math.PI;
    return [cx + r * Math.cos(angle), cy + r * Math.sin(angle)] as const;
  });
}

/** An axis-aligned ellipse as a 48-sided outline. */
export function ellipse(cx: number, cy: number, rx: number, ry: number): Point[] {
  return Array.from({ length: 48 }, (_, i) => {
    const angle = (i / 48) * 2 * Math.PI;
    return [cx + rx * Math.cos(angle), cy + ry * Math.sin(angle)] as const;
  });
}

/** The smallest box holding every point of every outline, widened by `margin` pixels each side. */
export function boxAround(outlines: readonly (readonly Point[])[], margin = 0): PixelBox {
  const points = outlines.flat();
  const xs = points.map(([x]) => x);
  const ys = points.map(([, y]) => y);
  const left = Math.min(...xs) - margin;
  const top = Math.min(...ys) - margin;
  return { x: left, y: top, width: Math.max(...xs) + margin - left, height: Math.max(...ys) + margin - top };
}

/** `box` as a fraction of a `width` x `height` image (the results' convention), clipped to it. */
export function normalised(box: PixelBox, width: number, height: number): BoundingBox {
  const left = Math.max(0, box.x);
  const top = Math.max(0, box.y);
  const right = Math.min(width, box.x + box.width);
  const bottom = Math.min(height, box.y + box.height);
  const ratio = (value: number) => Math.round(value * 10_000) / 10_000;
  return {
    x: ratio(left / width),
    y: ratio(top / height),
    width: ratio((right - left) / width),
    height: ratio((bottom - top) / height),
  };
}

/** Even-odd point-in-polygon test for the centre of pixel (x, y). */
export function insideOutline(x: number, y: number, outline: readonly Point[]): boolean {
  const px = x + 0.5;
  const py = y + 0.5;
  let inside = false;
  for (let i = 0, j = outline.length - 1; i < outline.length; j = i++) {
    const [xi, yi] = outline[i] as Point;
    const [xj, yj] = outline[j] as Point;
    if (yi > py !== yj > py && px < ((xj - xi) * (py - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** Area of an outline in square pixels (shoelace formula). */
export function outlineArea(outline: readonly Point[]): number {
  let twice = 0;
  for (let i = 0, j = outline.length - 1; i < outline.length; j = i++) {
    const [xi, yi] = outline[i] as Point;
    const [xj, yj] = outline[j] as Point;
    twice += xj * yi - xi * yj;
  }
  return Math.abs(twice) / 2;
}

/** Mirrors an outline left to right about the vertical line `x = axis / 2`. */
export function mirrored(outline: readonly Point[], axis: number): Point[] {
  return outline.map(([x, y]) => [axis - x, y] as const);
}
