import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto';
import { S3RequestPresigner } from '@aws-sdk/s3-request-presigner';
import type { AwsCredentialIdentity, Checksum, SourceData } from '@smithy/types';

/** SHA-256 / HMAC-SHA-256 in the shape the AWS signers take, on node:crypto. */
class NodeSha256 implements Checksum {
  private hash: Hash | Hmac;
  constructor(private readonly secret?: SourceData) {
    this.hash = this.fresh();
  }
  private fresh(): Hash | Hmac {
    return this.secret === undefined ? createHash('sha256') : createHmac('sha256', toBytes(this.secret));
  }
  update(data: Uint8Array | string): void {
    this.hash.update(toBytes(data));
  }
  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.hash.digest());
  }
  reset(): void {
    this.hash = this.fresh();
  }
}

function toBytes(data: SourceData): Uint8Array {
  if (typeof data === 'string') return Buffer.from(data, 'utf8');
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  return new Uint8Array(data);
}

export type PresignedVerdict = { valid: true } | { valid: false; reason: string };

/**
 * Checks an S3 presigned (SigV4 query-signed) URL the way S3 does: the credential names the
 * expected access key, the request time lies inside [X-Amz-Date, X-Amz-Date + X-Amz-Expires],
 * and the signature recomputed over the request as it will be sent (method, path, query,
 * signed headers) matches. The local S3 stand-in does none of this, so tests call it directly.
 */
export async function verifyPresignedUrl(
  signedUrl: string,
  expected: { credentials: AwsCredentialIdentity; method: string; nowMs: number; headers?: Record<string, string> },
): Promise<PresignedVerdict> {
  const url = new URL(signedUrl);
  const q = url.searchParams;
  if (q.get('X-Amz-Algorithm') !== 'AWS4-HMAC-SHA256') return { valid: false, reason: 'not a SigV4 query signature' };
  const [accessKeyId, , region, service] = (q.get('X-Amz-Credential') ?? '').split('/');
  if (accessKeyId !== expected.credentials.accessKeyId || !region || service !== 's3') return { valid: false, reason: 'credential scope does not match' };
  const amzDate = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(q.get('X-Amz-Date') ?? '');
  const expires = Number(q.get('X-Amz-Expires'));
  if (!amzDate || !Number.isInteger(expires) || expires < 1 || expires > 604800) return { valid: false, reason: 'malformed date or expiry' };
  const signedAt = Date.UTC(+amzDate[1]!, +amzDate[2]! - 1, +amzDate[3]!, +amzDate[4]!, +amzDate[5]!, +amzDate[6]!);
  if (expected.nowMs < signedAt - 15 * 60_000) return { valid: false, reason: 'signed in the future' };
  if (expected.nowMs > signedAt + expires * 1000) return { valid: false, reason: 'expired' };

  const query: Record<string, string> = {};
  for (const [name, value] of q) if (!name.startsWith('X-Amz-')) query[name] = value;
  const headers: Record<string, string> = { host: url.host };
  for (const name of (q.get('X-Amz-SignedHeaders') ?? '').split(';')) {
    if (name === 'host' || name === '') continue;
    const value = Object.entries(expected.headers ?? {}).find(([key]) => key.toLowerCase() === name)?.[1];
    if (value === undefined) return { valid: false, reason: `the request lacks the signed header ${name}` };
    headers[name] = value;
  }
  const presigner = new S3RequestPresigner({ credentials: expected.credentials, region, sha256: NodeSha256 });
  const recomputed = await presigner.presign(
    { method: expected.method, protocol: url.protocol, hostname: url.hostname, ...(url.port ? { port: Number(url.port) } : {}), path: url.pathname, query, headers },
    { signingDate: new Date(signedAt), expiresIn: expires, signableHeaders: new Set(Object.keys(headers).filter((name) => name !== 'host')) },
  );
  const signature = q.get('X-Amz-Signature');
  return recomputed.query?.['X-Amz-Signature'] === signature ? { valid: true } : { valid: false, reason: 'signature does not match' };
}
