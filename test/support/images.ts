const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Width, height and colour type from a PNG's IHDR chunk; null when the bytes are no PNG. */
export function pngInfo(bytes: Buffer): { width: number; height: number; colorType: number } | null {
  if (bytes.length < 33 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE) || bytes.toString('latin1', 12, 16) !== 'IHDR')
    return null;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20), colorType: bytes[25]! };
}

/** Logical screen size from a GIF header; null when the bytes are no GIF. */
export function gifInfo(bytes: Buffer): { width: number; height: number } | null {
  const magic = bytes.toString('latin1', 0, 6);
  if (magic !== 'GIF89a' && magic !== 'GIF87a') return null;
  return { width: bytes.readUInt16LE(6), height: bytes.readUInt16LE(8) };
}

/** Downloads a signed file URL the way a client would. */
export async function download(url: string): Promise<{ status: number; contentType: string | null; bytes: Buffer }> {
  const response = await fetch(url);
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    bytes: Buffer.from(await response.arrayBuffer()),
  };
}
