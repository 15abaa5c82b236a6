import type { PlateReadParams } from '../../schemas/params/plate-read.js';
import type { PlateReadResult } from '../../schemas/results/plate-read.js';
import type { ImageSize } from './image-size.js';
import {
  normalisedBox,
  type PixelBox,
  type ReadLine,
  roundedConfidence,
  type TesseractEngine,
  unionBox,
} from './tesseract-engine.js';

/** Plate characters: digits and the letters plates use, without I, O and Q (read as 1 and 0 otherwise). */
export const PLATE_ALPHABET = 'ABCDEFGHJKLMNPRSTUVWXYZ0123456789';
/** A line is a plate candidate when it holds a run of 4 to 10 plate characters mixing letters and digits. */
const CANDIDATE = /^(?=.*[A-Z])(?=.*\d)[A-Z0-9]{4,10}$/;

/** The located line with half its height of margin all round: room for characters the page read missed at its ends. */
function candidateRegion(line: ReadLine, size: ImageSize): PixelBox {
  const margin = Math.round((line.box.y1 - line.box.y0) / 2);
  return {
    x0: Math.max(0, line.box.x0 - margin),
    y0: Math.max(0, line.box.y0 - margin),
    x1: Math.min(size.width, line.box.x1 + margin),
    y1: Math.min(size.height, line.box.y1 + margin),
  };
}

/** A word cut by the crop's edge is the plate's border or the scene around it, not a character of the plate. */
function insideCrop(box: PixelBox, crop: PixelBox): boolean {
  return box.x0 > crop.x0 + 1 && box.x1 < crop.x1 - 1;
}

/**
 * plate.read on the reference plane: the plates are located first (a page read finds the lines of
 * text that look like a plate: letters and digits, 4 to 10 of them), then each is read again on
 * its own, as a single line in the plate alphabet, from a crop with a margin around it. The box is
 * on what that second read found; the confidence is the engine's for it.
 */
export async function readPlates(
  engine: TesseractEngine,
  image: Uint8Array,
  size: ImageSize,
  params: PlateReadParams,
): Promise<PlateReadResult> {
  const page = await engine.read(image, { layout: 'auto' });
  const located = page.lines.filter((line) => CANDIDATE.test(line.text.toUpperCase().replace(/[^A-Z0-9]/g, '')));
  const plates: PlateReadResult['plates'] = [];
  const seen = new Set<string>();
  for (const line of located) {
    const region = candidateRegion(line, size);
    const crop = await engine.read(image, { layout: 'single_line', alphabet: `${PLATE_ALPHABET} -`, region });
    const words = (crop.lines[0]?.words ?? []).filter((word) => insideCrop(word.box, region));
    if (!words.length) continue;
    const text = words.map((word) => word.text).join(' ');
    const normalized = text.replace(/[^A-Z0-9]/g, '');
    if (!CANDIDATE.test(normalized) || seen.has(normalized)) continue;
    seen.add(normalized);
    const confidence = roundedConfidence(Math.min(...words.map((word) => word.confidence)));
    if (confidence < params.min_confidence) continue;
    plates.push({
      text,
      normalized,
      confidence,
      bbox: normalisedBox(unionBox(words.map((word) => word.box)), size),
      // the engine reads text, not issuing countries: the plane does not guess one
      region: { country: null, subdivision: null },
      region_confidence: 0,
      crop: null,
    });
  }
  const reported = plates.sort((a, b) => b.confidence - a.confidence).slice(0, params.max_plates);
  return { plates: reported, needs_review: reported.length === 0 || reported.some((plate) => plate.confidence < 0.5) };
}
