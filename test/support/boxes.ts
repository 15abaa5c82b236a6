/** A box in any one unit (pixels, or fractions of the image), origin top-left. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Intersection over union of two boxes in the same unit: 1 for the same box, 0 for boxes apart. */
export function intersectionOverUnion(a: Box, b: Box): number {
  const width = Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x));
  const height = Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y));
  const overlap = width * height;
  return overlap / (a.width * a.height + b.width * b.height - overlap);
}

/** A box in shares of a `width` x `height` image (as results carry them), in that image's pixels. */
export function inPixels(box: Box, image: { width: number; height: number }): Box {
  return {
    x: box.x * image.width,
    y: box.y * image.height,
    width: box.width * image.width,
    height: box.height * image.height,
  };
}
