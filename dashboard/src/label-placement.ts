/**
 * Where each drawn shape's label goes, so that no label covers another: every label is tried at
 * the places a reader looks for it (above its box, below it, inside its top corner, each at the
 * box's left edge and then its right edge), kept inside the picture, and the first place that
 * overlaps no label placed before it wins. A label with no free place inside the picture goes to
 * a strip added under it (rows of labels, each still beside its own colour), so the rule holds
 * however crowded the picture is. Pure: the unit test proves the rule on any set of boxes.
 */

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface LabelRequest {
  /** the shape the label names, in the picture's units */
  box: Rect;
  /** the label's own size, in the same units */
  width: number;
  height: number;
}

export interface LabelLayout {
  /** one rectangle per request, in request order */
  labels: Rect[];
  /** how much taller than the picture the drawing must be to hold the labels put under it */
  extraHeight: number;
}

const overlaps = (a: Rect, b: Rect) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

const clamp = (value: number, low: number, high: number) => Math.min(Math.max(value, low), Math.max(low, high));

/** The places tried for one label, best first, each kept inside the picture. */
function candidates(request: LabelRequest, frame: { width: number; height: number }, gap: number): Rect[] {
  const { box, width, height } = request;
  if (width > frame.width || height > frame.height) return [];
  const lefts = [box.x, box.x + box.width - width];
  // above and below only where they fit: squeezed against the picture's edge they would cover the box
  const above = box.y - height - gap;
  const below = box.y + box.height + gap;
  const tops = [...(above >= 0 ? [above] : []), ...(below + height <= frame.height ? [below] : []), box.y + gap];
  const places: Rect[] = [];
  for (const top of tops)
    for (const left of lefts)
      places.push({
        x: clamp(left, 0, frame.width - width),
        y: clamp(top, 0, frame.height - height),
        width,
        height,
      });
  return places;
}

/** Lays out every label (see the module's comment); `gap` is the space kept between a label and its box. */
export function placeLabels(
  requests: readonly LabelRequest[],
  frame: { width: number; height: number },
  gap = 2,
): LabelLayout {
  const placed: Rect[] = [];
  const spilled: number[] = [];
  const labels: Rect[] = [];
  for (const [i, request] of requests.entries()) {
    const free = candidates(request, frame, gap).find((place) => !placed.some((other) => overlaps(place, other)));
    if (free) {
      placed.push(free);
      labels[i] = free;
    } else spilled.push(i);
  }
  // the strip under the picture: left to right, a new row when one is full
  let x = 0;
  let rowTop = frame.height + gap;
  let rowHeight = 0;
  for (const i of spilled) {
    const { width, height } = requests[i]!;
    if (x > 0 && x + width > frame.width) {
      rowTop += rowHeight + gap;
      x = 0;
      rowHeight = 0;
    }
    labels[i] = { x, y: rowTop, width, height };
    x += width + gap;
    rowHeight = Math.max(rowHeight, height);
  }
  return { labels, extraHeight: spilled.length ? rowTop + rowHeight + gap - frame.height : 0 };
}
