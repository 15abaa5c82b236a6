import type { ImageSize } from '../../domain/jobs/image-size.js';
import type { DocumentReadParams } from '../../schemas/params/document-read.js';
import type { DocumentReadResult } from '../../schemas/results/document-read.js';
import { normalisedBox, roundedConfidence, type TesseractEngine } from './tesseract-engine.js';

/**
 * document.read on the reference plane: every line of text the engine locates on the page, in
 * reading order, as a field `line_<n>` with its box and confidence. It does not classify documents
 * or name their fields (`document_type` is the one asked for, else `unknown`).
 */
export async function readDocument(
  engine: TesseractEngine,
  image: Uint8Array,
  size: ImageSize,
  params: DocumentReadParams,
): Promise<DocumentReadResult> {
  const page = await engine.read(image, { layout: 'auto' });
  const fields = page.lines.map((line, index) => ({
    key: `line_${index + 1}`,
    label: `Line ${index + 1}`,
    value: line.text,
    confidence: roundedConfidence(line.confidence),
    page: 1,
    bbox: normalisedBox(line.box, size),
  }));
  return {
    document_type: params.document_type === 'auto' ? 'unknown' : params.document_type,
    country: params.country ?? null,
    page_count: 1,
    fields,
    raw_text: params.return_raw_text ? page.text : null,
    needs_review: fields.length === 0 || fields.some((field) => field.confidence < 0.5),
  };
}
