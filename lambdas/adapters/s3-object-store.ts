import { createHash } from 'node:crypto';
import type { S3Client } from '@aws-sdk/client-s3';
import { type Clock, systemClock } from '../domain/kernel/clock.js';
import type { ObjectStore, StoredObject } from '../domain/ports/jobs.js';
import { presignerSdk, s3Sdk } from './aws-sdk.js';

/**
 * The bucket behind uploads, multipart inputs and produced files. Presigned URLs are SigV4
 * query signatures dated by the injected clock, so a test that moves time gets URLs signed
 * at that time (and each read of a job a fresh signature).
 */
export class S3ObjectStore implements ObjectStore {
  constructor(
    private readonly client: () => Promise<S3Client>,
    private readonly bucket: string,
    private readonly clock: Clock = systemClock,
  ) {}

  async put(key: string, body: Uint8Array, contentType: string): Promise<void> {
    const { PutObjectCommand } = s3Sdk();
    await (await this.client()).send(
      new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: contentType }),
    );
  }

  async copy(fromKey: string, toKey: string): Promise<void> {
    const { CopyObjectCommand } = s3Sdk();
    await (await this.client()).send(
      new CopyObjectCommand({
        Bucket: this.bucket,
        Key: toKey,
        CopySource: `${this.bucket}/${fromKey.split('/').map(encodeURIComponent).join('/')}`,
      }),
    );
  }

  async sha256(key: string): Promise<string | null> {
    return this.read(key, async (body) => {
      const hash = createHash('sha256');
      for await (const chunk of body) hash.update(chunk);
      return hash.digest('hex');
    });
  }

  async get(key: string): Promise<Uint8Array | null> {
    return this.read(key, async (body) => {
      const chunks: Uint8Array[] = [];
      for await (const chunk of body) chunks.push(chunk);
      return Buffer.concat(chunks);
    });
  }

  /** One ranged GET (`Range: bytes=…`); a range starting past the end is S3's 416, which reads as no bytes. */
  async getRange(key: string, offset: number, length: number): Promise<Uint8Array | null> {
    if (length <= 0) return new Uint8Array(0);
    try {
      return await this.read(
        key,
        async (body) => {
          const chunks: Uint8Array[] = [];
          for await (const chunk of body) chunks.push(chunk);
          // a stand-in that ignores Range sends the whole object: keep only the asked bytes
          const bytes = Buffer.concat(chunks);
          return bytes.length > length ? bytes.subarray(0, length) : bytes;
        },
        `bytes=${offset}-${offset + length - 1}`,
      );
    } catch (error) {
      const failure = error as { name?: string; $metadata?: { httpStatusCode?: number } };
      if (failure.name === 'InvalidRange' || failure.$metadata?.httpStatusCode === 416) return new Uint8Array(0);
      throw error;
    }
  }

  /** Reads the object's body (or a range of it) as a stream; null when nothing is stored under the key. */
  private async read<T>(
    key: string,
    consume: (body: AsyncIterable<Uint8Array>) => Promise<T>,
    range?: string,
  ): Promise<T | null> {
    const { GetObjectCommand } = s3Sdk();
    try {
      const out = await (await this.client()).send(
        new GetObjectCommand({ Bucket: this.bucket, Key: key, ...(range ? { Range: range } : {}) }),
      );
      return await consume(out.Body as AsyncIterable<Uint8Array>);
    } catch (error) {
      const failure = error as { name?: string; $metadata?: { httpStatusCode?: number } };
      if (failure.name === 'NoSuchKey' || failure.$metadata?.httpStatusCode === 404) return null;
      throw error;
    }
  }

  async head(key: string): Promise<StoredObject | null> {
    const { HeadObjectCommand } = s3Sdk();
    try {
      const out = await (await this.client()).send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { contentType: out.ContentType ?? null, sizeBytes: out.ContentLength ?? 0, etag: out.ETag ?? null };
    } catch (error) {
      const failure = error as { name?: string; $metadata?: { httpStatusCode?: number } };
      if (failure.name === 'NotFound' || failure.$metadata?.httpStatusCode === 404) return null;
      throw error;
    }
  }

  /** Content-Type and Content-Length are signed headers: S3 refuses a PUT of another type or size. */
  async signedPutUrl(key: string, contentType: string, sizeBytes: number, expiresInSeconds: number): Promise<string> {
    const { PutObjectCommand } = s3Sdk();
    return presignerSdk().getSignedUrl(
      await this.client(),
      new PutObjectCommand({ Bucket: this.bucket, Key: key, ContentType: contentType, ContentLength: sizeBytes }),
      {
        expiresIn: expiresInSeconds,
        signableHeaders: new Set(['content-type', 'content-length']),
        signingDate: new Date(this.clock.nowMs()),
      },
    );
  }

  async signedGetUrl(key: string, expiresInSeconds: number): Promise<string> {
    const { GetObjectCommand } = s3Sdk();
    return presignerSdk().getSignedUrl(await this.client(), new GetObjectCommand({ Bucket: this.bucket, Key: key }), {
      expiresIn: expiresInSeconds,
      signingDate: new Date(this.clock.nowMs()),
    });
  }
}
