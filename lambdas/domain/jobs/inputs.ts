import { createHash } from 'node:crypto';
import type { Services } from '../ports/services.js';
import { storedMediaType } from './image-type.js';
import type { InputAsset } from './job.js';

export interface IncomingFile {
  filename: string | null;
  contentType: string;
  bytes: Uint8Array;
  /** hex SHA-256 when the parser already computed it on the way through */
  sha256?: string;
}

export function inputObjectKey(orgId: string, jobId: string, index: number): string {
  return `inputs/${orgId}/${jobId}/${index}`;
}

/**
 * Stores multipart files before admission. If admission is then refused the objects are
 * orphans that the bucket's lifecycle rule removes; nothing refers to them.
 */
export async function storeIncomingFiles(services: Services, orgId: string, jobId: string, files: readonly IncomingFile[]): Promise<InputAsset[]> {
  return Promise.all(
    files.map(async (file, index) => {
      const objectKey = inputObjectKey(orgId, jobId, index);
      const contentType = storedMediaType(file.contentType, file.bytes);
      await services.objects.put(objectKey, file.bytes, contentType);
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
