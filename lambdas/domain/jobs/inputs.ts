import { createHash } from 'node:crypto';
import type { Services } from '../ports/services.js';
import type { InputAsset } from './job.js';

export interface IncomingFile {
  filename: string | null;
  contentType: string;
  bytes: Uint8Array;
  /** hex SHA-256 when the parser already computed it on the way through */
  sha256?: string;
}

export function inputObjectKey(orgId: string, jobId: string, index: number): string {
  return `${inputFolder(orgId)}${jobId}/${index}`;
}

/** The folder of an organisation's multipart inputs, one sub-folder per job (uploaded inputs stay under `uploads/`). */
export function inputFolder(orgId: string): string {
  return `inputs/${orgId}/`;
}

/**
 * Records multipart files as job inputs and, when `keepBytes`, stores them before admission.
 * Live mode always keeps them (the inference plane reads them). A test job keeps them only when
 * its endpoint's sandbox model can return an input unchanged (`sandboxReturnsInputs`); every other
 * sandbox model works from the SHA-256 taken while parsing, so storing the bytes would be a PUT nobody
 * reads. An unstored input's `object_key` is still `inputs/<org>/<job>/<index>` (the record keeps
 * one shape) but names no object.
 * If admission is refused after storing, the objects are orphans that the bucket's lifecycle
 * rule removes; nothing refers to them.
 */
export async function storeIncomingFiles(
  services: Services,
  orgId: string,
  jobId: string,
  files: readonly IncomingFile[],
  keepBytes: boolean,
): Promise<InputAsset[]> {
  return Promise.all(
    files.map(async (file, index) => {
      const objectKey = inputObjectKey(orgId, jobId, index);
      const contentType = storedMediaType(file.contentType, file.bytes);
      if (keepBytes) await services.objects.put(objectKey, file.bytes, contentType);
      return {
        index,
        filename: file.filename,
        content_type: contentType,
        size_bytes: file.bytes.byteLength,
        sha256: file.sha256 ?? createHash('sha256').update(file.bytes).digest('hex'),
        object_key: objectKey,
      };
    }),
  );
}

/** Leading bytes of the image formats the endpoints take, by media type. */
const SIGNATURES: ReadonlyArray<{ type: string; matches: (bytes: Uint8Array) => boolean }> = [
  { type: 'image/jpeg', matches: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  {
    type: 'image/png',
    matches: (b) => [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((byte, i) => b[i] === byte),
  },
  { type: 'image/webp', matches: (b) => ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP' },
  { type: 'image/gif', matches: (b) => ascii(b, 0, 4) === 'GIF8' },
];

function ascii(bytes: Uint8Array, start: number, end: number): string {
  return String.fromCharCode(...bytes.subarray(start, end));
}

/**
 * The media type to keep for a file: the one it was sent with, unless that says only
 * `application/octet-stream` (curl's label for an unknown file) and the bytes are an image we
 * know, so a passthrough result and its signed URL carry the real type.
 */
export function storedMediaType(declared: string, bytes: Uint8Array): string {
  if (declared !== 'application/octet-stream') return declared;
  return SIGNATURES.find((signature) => signature.matches(bytes))?.type ?? declared;
}
