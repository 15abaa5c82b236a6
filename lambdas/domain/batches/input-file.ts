import { ApiError } from '../kernel/errors.js';
import type { Services } from '../ports/services.js';
import { MAX_BATCH_LINES, MAX_CUSTOM_ID_LENGTH } from './batch.js';

/** The lines of a JSONL file (a last newline ends the last line; `\r\n` is read as `\n`), or why it is not one. */
export function jsonlLines(bytes: Uint8Array): string[] | ApiError {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new ApiError(
      'parameter_invalid',
      'input_file',
      'The input file is not UTF-8 text: a batch takes JSONL, one JSON call body per line.',
    );
  }
  const lines = text.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
  if (lines.at(-1) === '') lines.pop();
  if (lines.length === 0) return new ApiError('parameter_invalid', 'input_file', 'The input file holds no line.');
  if (lines.length > MAX_BATCH_LINES)
    return new ApiError(
      'parameter_invalid',
      'input_file',
      `The input file holds ${lines.length} lines; a batch takes at most ${MAX_BATCH_LINES}.`,
    );
  return lines;
}

/** The lines of a stored input file; it was read and checked when the batch was created. */
export async function storedInputLines(services: Services, objectKey: string): Promise<string[]> {
  const bytes = await services.objects.get(objectKey);
  if (!bytes) throw new Error(`the batch input file ${objectKey} is gone`);
  const lines = jsonlLines(bytes);
  if (lines instanceof ApiError) throw new Error(`the batch input file ${objectKey} no longer reads: ${lines.message}`);
  return lines;
}

/** The `custom_id` of a line, when it has a readable one. */
export function customIdOf(text: string): string | null {
  try {
    const value: unknown = JSON.parse(text);
    const customId =
      typeof value === 'object' && value !== null ? (value as { custom_id?: unknown }).custom_id : undefined;
    return typeof customId === 'string' && customId.length <= MAX_CUSTOM_ID_LENGTH ? customId : null;
  } catch {
    return null;
  }
}
