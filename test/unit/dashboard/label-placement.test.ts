import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type LabelRequest, placeLabels, type Rect } from '../../../dashboard/src/label-placement.js';

const intersect = (a: Rect, b: Rect) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

const frame = { width: 800, height: 600 };

/** A box inside the frame with a label of a readable size for it. */
const request = fc
  .record({
    x: fc.integer({ min: 0, max: 790 }),
    y: fc.integer({ min: 0, max: 590 }),
    width: fc.integer({ min: 1, max: 800 }),
    height: fc.integer({ min: 1, max: 600 }),
    labelWidth: fc.integer({ min: 10, max: 900 }),
    labelHeight: fc.integer({ min: 8, max: 80 }),
  })
  .map(
    (r): LabelRequest => ({
      box: {
        x: r.x,
        y: r.y,
        width: Math.min(r.width, frame.width - r.x),
        height: Math.min(r.height, frame.height - r.y),
      },
      width: r.labelWidth,
      height: r.labelHeight,
    }),
  );

describe('label placement on a drawn result', () => {
  it('no two labels overlap, whatever the boxes, and each lies in the picture or the strip added under it', () => {
    fc.assert(
      fc.property(fc.array(request, { maxLength: 40 }), (requests) => {
        const { labels, extraHeight } = placeLabels(requests, frame);
        expect(labels).toHaveLength(requests.length);
        for (const [i, label] of labels.entries()) {
          expect(label.width).toBe(requests[i]!.width);
          expect(label.x).toBeGreaterThanOrEqual(0);
          expect(label.y).toBeGreaterThanOrEqual(0);
          expect(label.y + label.height).toBeLessThanOrEqual(frame.height + extraHeight);
          if (label.width <= frame.width) expect(label.x + label.width).toBeLessThanOrEqual(frame.width);
          for (const other of labels.slice(i + 1)) expect(intersect(label, other)).toBe(false);
        }
      }),
    );
  });

  it('puts a lone label just above its box, at its left edge', () => {
    const { labels, extraHeight } = placeLabels(
      [{ box: { x: 100, y: 200, width: 300, height: 80 }, width: 120, height: 20 }],
      frame,
    );
    expect(labels).toEqual([{ x: 100, y: 178, width: 120, height: 20 }]);
    expect(extraHeight).toBe(0);
  });

  it('moves a label off the top edge to below its box, and off the right edge to inside the picture', () => {
    const { labels } = placeLabels([{ box: { x: 700, y: 0, width: 100, height: 50 }, width: 160, height: 20 }], frame);
    expect(labels).toEqual([{ x: 640, y: 52, width: 160, height: 20 }]);
  });

  it('gives two labels of the same box two places: above, then below', () => {
    const box = { x: 300, y: 300, width: 200, height: 100 };
    const { labels } = placeLabels(
      [
        { box, width: 150, height: 24 },
        { box, width: 150, height: 24 },
      ],
      frame,
    );
    expect(labels.map((label) => label.y)).toEqual([274, 402]);
  });

  it('sends labels that find no free place into rows under the picture', () => {
    const box = { x: 0, y: 0, width: 800, height: 600 };
    const requests = Array.from({ length: 12 }, () => ({ box, width: 500, height: 300 }));
    const { labels, extraHeight } = placeLabels(requests, frame);
    const under = labels.filter((label) => label.y >= frame.height);
    expect(under.length).toBeGreaterThan(0);
    expect(extraHeight).toBeGreaterThanOrEqual(300 * under.length);
  });
});
