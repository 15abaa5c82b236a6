import type { ImageSize } from '../../domain/jobs/image-size.js';
import type { PlateReadParams } from '../../schemas/params/plate-read.js';
import type { FileRef } from '../../schemas/results/file-refs.js';
import type { StoredResult } from '../../schemas/results/index.js';
import {
  normalisedBox,
  type PixelBox,
  type ReadLine,
  roundedConfidence,
  type TesseractEngine,
  unionBox,
} from './tesseract-engine.js';

/** Plate characters: capital letters and digits (plates of many countries use I and O, and most avoid Q). */
export const PLATE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
/** A line is a plate candidate when it holds a run of 4 to 10 plate characters mixing letters and digits. */
const CANDIDATE = /^(?=.*[A-Z])(?=.*\d)[A-Z0-9]{4,10}$/;

/**
 * The crops a located line is read again from, each as a share of the line's height added (or, when
 * negative, taken) all round: half a height of margin gives room for characters the page read missed at
 * the ends; a tenth inside keeps out the plate's frame, which the page read often takes for a character.
 */
const CROP_MARGINS = [-0.1, 0.5] as const;

function cropOf(line: ReadLine, size: ImageSize, share: number): PixelBox {
  const margin = Math.round((line.box.y1 - line.box.y0) * share);
  return {
    x0: Math.max(0, line.box.x0 - margin),
    y0: Math.max(0, line.box.y0 - margin),
    x1: Math.min(size.width, line.box.x1 + margin),
    y1: Math.min(size.height, line.box.y1 + margin),
  };
}

/**
 * A group of a plate is letters or digits: 0 and O, 1 and I look alike, so each of them takes the kind
 * of the group it stands in (the most of its other characters).
 */
function byGroupKind(word: string): string {
  const letters = word.replace(/[^A-Z]/g, '').replace(/[OI]/g, '').length;
  const digits = word.replace(/[^0-9]/g, '').replace(/[01]/g, '').length;
  if (letters > digits) return word.replaceAll('0', 'O').replaceAll('1', 'I');
  if (digits > letters) return word.replaceAll('O', '0').replaceAll('I', '1');
  return word;
}

interface PlateReading {
  words: ReadLine['words'];
  text: string;
  normalized: string;
  confidence: number;
}

/** The line read again as a plate from one crop, or null when what it holds is not a plate. */
async function readCrop(engine: TesseractEngine, image: Uint8Array, region: PixelBox): Promise<PlateReading | null> {
  const crop = await engine.read(image, { layout: 'single_line', alphabet: `${PLATE_ALPHABET} -`, region });
  const words = (crop.lines[0]?.words ?? []).filter((word) => insideCrop(word.box, region));
  if (!words.length) return null;
  const text = words.map((word) => byGroupKind(word.text)).join(' ');
  const normalized = text.replace(/[^A-Z0-9]/g, '');
  if (!CANDIDATE.test(normalized)) return null;
  return { words, text, normalized, confidence: roundedConfidence(Math.min(...words.map((word) => word.confidence))) };
}

/** The plate around the characters read: a quarter of their height of margin keeps its frame in the crop. */
function plateFace(read: PixelBox, size: ImageSize): PixelBox {
  const margin = Math.round((read.y1 - read.y0) / 4);
  return {
    x0: Math.max(0, read.x0 - margin),
    y0: Math.max(0, read.y0 - margin),
    x1: Math.min(size.width, read.x1 + margin),
    y1: Math.min(size.height, read.y1 + margin),
  };
}

/** A word cut by the crop's edge is the plate's border or the scene around it, not a character of the plate. */
function insideCrop(box: PixelBox, crop: PixelBox): boolean {
  return box.x0 > crop.x0 + 1 && box.x1 < crop.x1 - 1;
}

/**
 * plate.read on the reference plane: the plates are located first (a page read finds the lines of
 * text that look like a plate: letters and digits, 4 to 10 of them), then each is read again on
 * its own, as a single line in the plate alphabet, from a crop just inside the line and one with a
 * margin around it; the surer of the two readings is kept. The box is on what that reading found;
 * the confidence is the engine's for it (its least sure word).
 */
export async function readPlates(
  engine: TesseractEngine,
  image: Uint8Array,
  size: ImageSize,
  params: PlateReadParams,
  saveCrop: (box: PixelBox, index: number) => Promise<FileRef>,
): Promise<StoredResult<'plate.read'>> {
  const page = await engine.read(image, { layout: 'auto' });
  const located = page.lines.filter((line) => CANDIDATE.test(line.text.toUpperCase().replace(/[^A-Z0-9]/g, '')));
  const plates: { plate: StoredResult<'plate.read'>['plates'][number]; face: PixelBox }[] = [];
  const seen = new Set<string>();
  for (const line of located) {
    let best: PlateReading | null = null;
    for (const share of CROP_MARGINS) {
      const reading = await readCrop(engine, image, cropOf(line, size, share));
      if (reading && (!best || reading.confidence > best.confidence)) best = reading;
    }
    if (!best || seen.has(best.normalized)) continue;
    seen.add(best.normalized);
    if (best.confidence < params.min_confidence) continue;
    const read = unionBox(best.words.map((word) => word.box));
    plates.push({
      plate: {
        text: best.text,
        normalized: best.normalized,
        confidence: best.confidence,
        bbox: normalisedBox(read, size),
        // the engine reads text, not issuing countries: the plane does not guess one
        region: { country: null, subdivision: null },
        region_confidence: 0,
        crop: null,
      },
      face: plateFace(read, size),
    });
  }
  const kept = plates.sort((a, b) => b.plate.confidence - a.plate.confidence).slice(0, params.max_plates);
  const reported = await Promise.all(
    kept.map(async ({ plate, face }, i) => ({ ...plate, crop: params.return_crops ? await saveCrop(face, i) : null })),
  );
  return { plates: reported, needs_review: reported.length === 0 || reported.some((plate) => plate.confidence < 0.5) };
}
