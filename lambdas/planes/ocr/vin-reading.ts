import type { ImageSize } from '../../domain/jobs/image-size.js';
import { decodeVin, hasValidCheckDigit } from '../../sandbox/vin.js';
import type { VinReadParams } from '../../schemas/params/vin-read.js';
import type { VinReadResult } from '../../schemas/results/vin-read.js';
import { normalisedBox, roundedConfidence, type TesseractEngine, unionBox } from './tesseract-engine.js';

/** What the engine may answer: the ISO 3779 alphabet plus I, O and Q, which a VIN never holds and are read as 1, 0, 0. */
const READ_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const NEVER_IN_A_VIN: Readonly<Record<string, string>> = { I: '1', O: '0', Q: '0' };
/** Characters the engine confuses on labels, tried when a North American check digit says a reading is wrong. */
const LOOK_ALIKES: Readonly<Record<string, string>> = {
  '0': 'D',
  D: '0',
  '1': 'L',
  L: '1',
  '2': 'Z',
  Z: '2',
  '5': 'S',
  S: '5',
  '6': 'G',
  G: '6',
  '8': 'B',
  B: '8',
};

/** The check digit (position 9) is mandatory for vehicles made for North America, whose WMIs start 1 to 5. */
function checkDigitApplies(vin: string): boolean {
  return /^[1-5]/.test(vin);
}

/** A 17-character reading as it stands, with I, O and Q mapped to the digits they stand for. */
function inVinAlphabet(read: string): string {
  return read.replace(/[IOQ]/g, (char) => NEVER_IN_A_VIN[char] as string);
}

/**
 * The VIN in a run of 17 or 18 characters. 17: the reading itself, corrected by its check digit
 * where it applies. 18 (the engine split one glyph in two, as `1` read as `1I`): the one deletion
 * whose check digit holds, where it applies; null when there is none, or several.
 */
export function vinOf(run: string): string | null {
  if (run.length === 17) return chooseReading(inVinAlphabet(run));
  if (run.length !== 18) return null;
  // a thin glyph read twice sits beside its twin: those deletions first, as the check digit alone
  // (one chance in eleven) lets some other deletion of the eighteen pass too
  const thin = (position: number) => 'I1L'.includes(run[position] ?? '');
  const split = (position: number) => thin(position) && (thin(position - 1) || thin(position + 1));
  const positions = [...run].map((_, position) => position);
  return onlyHolding(run, positions.filter(split)) ?? onlyHolding(run, positions);
}

/** The one VIN with a holding check digit among the run with one of `positions` deleted; null when none or several. */
function onlyHolding(run: string, positions: readonly number[]): string | null {
  const holding = new Set<string>();
  for (const position of positions) {
    const candidate = inVinAlphabet(`${run.slice(0, position)}${run.slice(position + 1)}`);
    if (checkDigitApplies(candidate) && hasValidCheckDigit(candidate)) holding.add(candidate);
  }
  return holding.size === 1 ? ([...holding][0] as string) : null;
}

/** The reading itself when its check digit holds or does not apply, else the one single look-alike swap that makes it hold. */
function chooseReading(read: string): string {
  if (!checkDigitApplies(read) || hasValidCheckDigit(read)) return read;
  const corrected: string[] = [];
  for (let position = 0; position < read.length; position++) {
    const swap = LOOK_ALIKES[read[position] as string];
    if (!swap) continue;
    const candidate = `${read.slice(0, position)}${swap}${read.slice(position + 1)}`;
    if (checkDigitApplies(candidate) && hasValidCheckDigit(candidate)) corrected.push(candidate);
  }
  return corrected.length === 1 ? (corrected[0] as string) : read;
}

/**
 * vin.read on the reference plane: a page read in the VIN alphabet; the first run of 17 VIN
 * characters on a line (its words joined, as VINs are often printed in groups) is the VIN, with I,
 * O, Q mapped to 1, 0, 0 and the North American check digit choosing between readings (look-alikes,
 * a glyph read twice).
 * The box covers the words it was read from; the confidence is the lowest of theirs.
 */
export async function readVin(
  engine: TesseractEngine,
  image: Uint8Array,
  size: ImageSize,
  params: VinReadParams,
): Promise<VinReadResult> {
  const page = await engine.read(image, { layout: 'auto', alphabet: READ_ALPHABET });
  for (const line of page.lines) {
    for (let first = 0; first < line.words.length; first++) {
      let joined = '';
      for (let last = first; last < line.words.length && joined.length < 17; last++) {
        joined += (line.words[last]?.text ?? '').toUpperCase().replace(/[^A-Z0-9]/g, '');
        const vin = vinOf(joined);
        if (!vin) continue;
        const words = line.words.slice(first, last + 1);
        const confidence = roundedConfidence(Math.min(...words.map((word) => word.confidence)));
        return {
          vin: {
            text: vin,
            confidence,
            bbox: normalisedBox(unionBox(words.map((word) => word.box)), size),
            location: 'unknown',
            checksum_valid: params.validate_checksum ? hasValidCheckDigit(vin) : null,
            decoded: params.decode ? decodeVin(vin) : null,
          },
          needs_review: confidence < 0.5 || (checkDigitApplies(vin) && !hasValidCheckDigit(vin)),
        };
      }
    }
  }
  return { vin: null, needs_review: true };
}
