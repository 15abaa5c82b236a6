import { existsSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import * as PImage from 'pureimage';
import type { Rng } from '../../lambdas/sandbox/prng.js';
import { checkDigit } from '../../lambdas/sandbox/vin.js';

// Images of text drawn in a fixed font (DejaVu, Debian's fonts-dejavu-core; docs/internals/testing.md), so
// an OCR test knows exactly what is written and where.

const FONT_DIRECTORY = '/usr/share/fonts/truetype/dejavu';
const FONTS = { mono: 'DejaVuSansMono-Bold.ttf', sans: 'DejaVuSans.ttf' } as const;
type FontName = keyof typeof FONTS;

const loaded = new Set<FontName>();
function font(name: FontName): string {
  const file = `${FONT_DIRECTORY}/${FONTS[name]}`;
  if (!existsSync(file))
    throw new Error(`${file} is missing: install Debian's fonts-dejavu-core (docs/internals/testing.md)`);
  if (!loaded.has(name)) {
    PImage.registerFont(file, `dejavu-${name}`).loadSync();
    loaded.add(name);
  }
  return `dejavu-${name}`;
}

/** Where a run of text was drawn, normalised to the image like a result's box. */
export interface DrawnBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface RenderedText {
  png: Buffer;
  /** one box per line drawn */
  lines: DrawnBox[];
}

interface TextLine {
  text: string;
  x: number;
  baseline: number;
}

async function render(
  width: number,
  height: number,
  fontName: FontName,
  size: number,
  lines: TextLine[],
  background: (context: PImage.Context) => void = () => {},
): Promise<RenderedText> {
  const image = PImage.make(width, height);
  const context = image.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, width, height);
  background(context);
  context.fillStyle = '#111111';
  context.font = `${size}pt '${font(fontName)}'`;
  const boxes = lines.map(({ text, x, baseline }) => {
    context.fillText(text, x, baseline);
    // DejaVu's capitals stand 0.73 of the size above the baseline, its descenders reach 0.24 below
    const top = baseline - size * 0.76;
    return {
      x: x / width,
      y: top / height,
      width: context.measureText(text).width / width,
      height: size / height,
    };
  });
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  await PImage.encodePNGToStream(image, stream);
  return { png: Buffer.concat(chunks), lines: boxes };
}

const VIN_ALPHABET = 'ABCDEFGHJKLMNPRSTUVWXYZ0123456789';
/** Plate letters: no I, O or Q, which plates avoid because they read as 1 and 0. */
export const PLATE_LETTERS = 'ABCDEFGHJKLMNPRSTUVWXYZ';

/** A random VIN for a North American vehicle (WMI starting 1 to 5) with its check digit. */
export function randomVin(rng: Rng): string {
  const draft = `${rng.chars('12345', 1)}${rng.chars(VIN_ALPHABET, 7)}0${rng.chars(VIN_ALPHABET, 8)}`;
  return `${draft.slice(0, 8)}${checkDigit(draft)}${draft.slice(9)}`;
}

/** A random plate: two or three letters, a space, three or four digits, a space, one or two letters. */
export function randomPlate(rng: Rng): string {
  return [
    rng.chars(PLATE_LETTERS, rng.int(2, 3)),
    rng.chars('0123456789', rng.int(3, 4)),
    rng.chars(PLATE_LETTERS, rng.int(1, 2)),
  ].join(' ');
}

const WORDS = [
  'vehicle',
  'registration',
  'owner',
  'address',
  'engine',
  'mileage',
  'colour',
  'insurance',
  'certificate',
  'issued',
  'valid',
  'until',
  'model',
  'brake',
  'service',
  'inspection',
  'passed',
  'front',
  'rear',
  'window',
  'number',
  'date',
  'total',
  'amount',
];

/** Three lines of random words and numbers, as a document might carry. */
export function randomDocumentLines(rng: Rng): string[] {
  return Array.from({ length: 3 }, () =>
    [...rng.sample(WORDS, 3), String(rng.int(10, 9999))]
      .map((word, index) => (index === 0 ? word.charAt(0).toUpperCase() + word.slice(1) : word))
      .join(' '),
  );
}

/** A VIN printed on a white label. */
export function vinLabel(vin: string): Promise<RenderedText> {
  return render(1100, 300, 'mono', 54, [{ text: vin, x: 60, baseline: 180 }]);
}

/** A plate on a simple car: a dark body, a white plate with black characters, somewhere on the front. */
export function plateScene(plate: string, rng: Rng): Promise<RenderedText> {
  const left = 150 + rng.int(0, 120);
  const top = 320 + rng.int(0, 60);
  return render(800, 600, 'mono', 36, [{ text: plate, x: left + 20, baseline: top + 58 }], (context) => {
    context.fillStyle = '#2b3a55';
    context.fillRect(80, 200, 640, 300);
    context.fillStyle = '#9aa5b8';
    context.fillRect(120, 230, 120, 50);
    context.fillRect(560, 230, 120, 50);
    context.fillStyle = '#ffffff';
    context.fillRect(left, top, 380, 80);
  });
}

/** A page of three lines of text. */
export function documentPage(lines: readonly string[]): Promise<RenderedText> {
  return render(
    900,
    400,
    'sans',
    24,
    lines.map((text, index) => ({ text, x: 50, baseline: 100 + index * 90 })),
  );
}
