import { createWorker, PSM, type Worker } from 'tesseract.js';
import type { ImageSize } from '../../domain/jobs/image-size.js';
import type { BoundingBox } from '../../schemas/results/common.js';
import { type OcrAssets, ocrAssets } from './ocr-assets.js';

/** A word as the engine read it: its text, its confidence (0 to 1) and its box in pixels. */
export interface ReadWord {
  text: string;
  confidence: number;
  box: PixelBox;
}

/** A line of text: its words in reading order. */
export interface ReadLine {
  text: string;
  confidence: number;
  box: PixelBox;
  words: ReadWord[];
}

export interface PixelBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface ReadRequest {
  /** how the page is laid out: `auto` finds blocks of text anywhere, `single_line` reads one line */
  layout: 'auto' | 'single_line';
  /** the only characters the engine may answer; every character when absent */
  alphabet?: string;
  /** the part of the image to read (pixels); the whole image when absent */
  region?: PixelBox;
}

export interface ReadPage {
  text: string;
  lines: ReadLine[];
}

const LAYOUTS = { auto: PSM.AUTO, single_line: PSM.SINGLE_LINE } as const;

/**
 * tesseract.js behind one long-lived worker per process (docs/internals/inference-plane.md, "The reference
 * plane"): starting one costs about a second, a read a few hundred milliseconds, so the worker is
 * made on the first read and kept. Reads are serialised on it (tesseract.js queues them), and each
 * sets its own layout and alphabet, so no read inherits another's.
 */
export class TesseractEngine {
  private worker: Promise<Worker> | undefined;

  constructor(private readonly assets: OcrAssets = ocrAssets()) {}

  private started(): Promise<Worker> {
    // tesseract.js reports a worker that fails to start (a core it cannot load) only to `errorHandler`,
    // and its own promise never settles: without this, a job would wait out the function's timeout
    this.worker ??= new Promise<Worker>((resolve, reject) => {
      createWorker('eng', 1, {
        workerPath: this.assets.workerPath,
        corePath: this.assets.corePath,
        langPath: this.assets.langPath,
        gzip: true,
        cacheMethod: 'none',
        errorHandler: (error: unknown) => reject(new Error(`the OCR engine failed to start: ${String(error)}`)),
      }).then(resolve, reject);
    }).catch((error: unknown) => {
      this.worker = undefined;
      throw error;
    });
    return this.worker;
  }

  async read(image: Uint8Array, request: ReadRequest): Promise<ReadPage> {
    const worker = await this.started();
    await worker.setParameters({
      tessedit_pageseg_mode: LAYOUTS[request.layout],
      tessedit_char_whitelist: request.alphabet ?? '',
    });
    const { region } = request;
    const { data } = await worker.recognize(
      Buffer.from(image),
      region
        ? {
            rectangle: { left: region.x0, top: region.y0, width: region.x1 - region.x0, height: region.y1 - region.y0 },
          }
        : {},
      { text: true, blocks: true },
    );
    const lines: ReadLine[] = [];
    for (const block of data.blocks ?? [])
      for (const paragraph of block.paragraphs)
        for (const line of paragraph.lines) {
          const words = line.words
            .filter((word) => word.text.trim() !== '')
            .map((word) => ({ text: word.text.trim(), confidence: word.confidence / 100, box: word.bbox }));
          if (words.length)
            lines.push({
              text: words.map((word) => word.text).join(' '),
              confidence: line.confidence / 100,
              box: line.bbox,
              words,
            });
        }
    return { text: data.text, lines };
  }

  async stop(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await (await worker).terminate();
  }
}

/** The smallest box holding every given box. */
export function unionBox(boxes: readonly PixelBox[]): PixelBox {
  return {
    x0: Math.min(...boxes.map((box) => box.x0)),
    y0: Math.min(...boxes.map((box) => box.y0)),
    x1: Math.max(...boxes.map((box) => box.x1)),
    y1: Math.max(...boxes.map((box) => box.y1)),
  };
}

/** A pixel box as the results report boxes: fractions of the image, clipped to it. */
export function normalisedBox(box: PixelBox, size: ImageSize): BoundingBox {
  const clip = (value: number) => Math.min(1, Math.max(0, value));
  const round = (value: number) => Math.round(value * 10_000) / 10_000;
  const x = clip(box.x0 / size.width);
  const y = clip(box.y0 / size.height);
  return {
    x: round(x),
    y: round(y),
    width: round(clip(box.x1 / size.width) - x),
    height: round(clip(box.y1 / size.height) - y),
  };
}

/** A confidence as results report it: 0 to 1, three decimals. */
export function roundedConfidence(value: number): number {
  return Math.round(Math.min(1, Math.max(0, value)) * 1000) / 1000;
}
