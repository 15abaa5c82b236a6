import { CopyObjectCommand, GetObjectCommand, HeadObjectCommand, NotFound, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { systemClock, type Clock } from '../domain/clock.js';
import type { ObjectStore, StoredObject } from '../domain/ports.js';

/**
 * The bucket behind uploads, multipart inputs and produced files. Presigned URLs are SigV4
 * query signatures dated by the injected clock, so a test that moves time gets URLs signed
 * at that time (and each read of a job a fresh signature).
 */
export class S3ObjectStore implements ObjectStore {
  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
    private readonly clock: Clock = systemClock,
  ) {}

  async put(key: string, body: Uint8Array, contentType: string): Promise<void> {
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: contentType }));
  }

  async copy(fromKey: string, toKey: string): Promise<void> {
    await this.client.send(new CopyObjectCommand({ Bucket: this.bucket, Key: toKey, CopySource: `${this.bucket}/${fromKey.split('/').map(encodeURIComponent).join('/')}` }));
  }

  async head(key: string): Promise<StoredObject | null> {
    try {
      const out = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { contentType: out.ContentType ?? null, sizeBytes: out.ContentLength ?? 0, etag: out.ETag ?? null };
    } catch (error) {
      if (error instanceof NotFound || (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return null;
      throw error;
    }
  }

  /** Content-Type and Content-Length are signed headers: S3 refuses a PUT of another type or size. */
  signedPutUrl(key: string, contentType: string, sizeBytes: number, expiresInSeconds: number): Promise<string> {
    return getSignedUrl(this.client, new PutObjectCommand({ Bucket: this.bucket, Key: key, ContentType: contentType, ContentLength: sizeBytes }), {
      expiresIn: expiresInSeconds,
      signableHeaders: new Set(['content-type', 'content-length']),
      signingDate: new Date(this.clock.nowMs()),
    });
  }

  signedGetUrl(key: string, expiresInSeconds: number): Promise<string> {
    return getSignedUrl(this.client, new GetObjectCommand({ Bucket: this.bucket, Key: key }), { expiresIn: expiresInSeconds, signingDate: new Date(this.clock.nowMs()) });
  }
}
