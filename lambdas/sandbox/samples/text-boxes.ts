import type { PixelBox } from './shapes.js';

/**
 * Where a line of monospaced text lands. The samples set every line a fixture reads in DejaVu Sans
 * Mono, whose advance is 1233/2048 em for every glyph, so the box follows from the text alone.
 */
export interface MonoLine {
  text: string;
  /** left end of the first glyph */
  x: number;
  baseline: number;
  size: number;
  letterSpacing: number;
}

const ADVANCE_EM = 1233 / 2048;
/** DejaVu's capitals and digits rise 0.73 em above the baseline; the box keeps a little air. */
const ASCENT_EM = 0.78;
const DESCENT_EM = 0.08;

export function monoLineBox(line: MonoLine): PixelBox {
  const glyphs = line.text.length;
  return {
    x: line.x,
    y: line.baseline - line.size * ASCENT_EM,
    width: glyphs * line.size * ADVANCE_EM + (glyphs - 1) * line.letterSpacing,
    height: line.size * (ASCENT_EM + DESCENT_EM),
  };
}
