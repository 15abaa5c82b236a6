/** Leading bytes of the image formats the endpoints take, by media type. */
const SIGNATURES: ReadonlyArray<{ type: string; matches: (bytes: Uint8Array) => boolean }> = [
  { type: 'image/jpeg', matches: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { type: 'image/png', matches: (b) => [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((byte, i) => b[i] === byte) },
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
