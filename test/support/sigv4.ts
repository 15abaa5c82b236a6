import type { AwsCredentialIdentity } from '@smithy/types';
import { authenticateS3Request } from '../../local/stand-ins/s3-request-auth.js';

export type PresignedVerdict = { valid: true } | { valid: false; reason: string };

/**
 * Checks an S3 presigned (SigV4 query-signed) URL the way S3 does, at a chosen time: with the
 * local S3 stand-in's own check (local/stand-ins/s3-request-auth.ts), so a test can ask about a
 * moment the stand-in's real clock has not reached, or about headers it would not send.
 */
export async function verifyPresignedUrl(
  signedUrl: string,
  expected: { credentials: AwsCredentialIdentity; method: string; nowMs: number; headers?: Record<string, string> },
): Promise<PresignedVerdict> {
  const url = new URL(signedUrl);
  const headers: Record<string, string> = { host: url.host };
  for (const [name, value] of Object.entries(expected.headers ?? {})) headers[name.toLowerCase()] = value;
  const verdict = authenticateS3Request(
    { method: expected.method, rawUrl: `${url.pathname}${url.search}`, headers },
    {
      secretOf: (id) => (id === expected.credentials.accessKeyId ? expected.credentials.secretAccessKey : undefined),
      nowMs: expected.nowMs,
    },
  );
  if (verdict.ok) return { valid: true };
  if (verdict.code === 'SignatureDoesNotMatch') return { valid: false, reason: 'signature does not match' };
  if (verdict.message === 'Request has expired') return { valid: false, reason: 'expired' };
  return { valid: false, reason: `${verdict.code}: ${verdict.message}` };
}
