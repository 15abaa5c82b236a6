import type { S3Client } from '@aws-sdk/client-s3';
import type { KeyRange, ObjectEraser } from '../domain/ports/erasure.js';
import { s3Sdk } from './aws-sdk.js';

/** S3 deletes at most this many keys per `DeleteObjects`. */
const DELETE_BATCH = 1000;

/** The bucket's keys for redaction and retention: `ListObjectsV2` in key order, `DeleteObjects` in batches. */
export class S3ObjectEraser implements ObjectEraser {
  constructor(
    private readonly client: () => Promise<S3Client>,
    private readonly bucket: string,
  ) {}

  async listKeys(prefix: string, range: KeyRange): Promise<string[]> {
    const { ListObjectsV2Command } = s3Sdk();
    const client = await this.client();
    const keys: string[] = [];
    let startAfter = range.startAfter;
    while (keys.length < range.limit) {
      const out = await client.send(
        new ListObjectsV2Command({
          Bucket: this.bucket,
          Prefix: prefix,
          MaxKeys: Math.min(range.limit - keys.length, 1000),
          ...(startAfter ? { StartAfter: startAfter } : {}),
        }),
      );
      const page = (out.Contents ?? []).flatMap((object) => (object.Key ? [object.Key] : []));
      const inRange = range.before === undefined ? page : page.filter((key) => key < range.before!);
      keys.push(...inRange);
      // keys come in order: one at or past `before` ends the range
      if (!out.IsTruncated || !page.length || inRange.length < page.length) break;
      startAfter = page.at(-1);
    }
    return keys;
  }

  async deleteKeys(keys: readonly string[]): Promise<void> {
    const { DeleteObjectsCommand } = s3Sdk();
    const client = await this.client();
    for (let start = 0; start < keys.length; start += DELETE_BATCH) {
      const batch = keys.slice(start, start + DELETE_BATCH);
      const out = await client.send(
        new DeleteObjectsCommand({
          Bucket: this.bucket,
          Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
        }),
      );
      const failed = out.Errors ?? [];
      if (failed.length)
        throw new Error(
          `S3 did not delete ${failed.length} of ${batch.length} objects: ${failed[0]?.Key} (${failed[0]?.Code}: ${failed[0]?.Message})`,
        );
    }
  }
}
