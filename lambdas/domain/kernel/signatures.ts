import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The one HMAC scheme of the service, byte-compatible with Stripe's:
 * `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`, with one `v1=` per
 * secret while a secret is being rolled. The internal completion callback
 * (`X-Inference-Signature`), the webhook deliveries' `Svc-Signature` and the local payment
 * provider's Stripe-shaped events all use it.
 */

/** Carries the signature of the inference plane's traffic: completion callbacks and job submissions. */
export const INFERENCE_SIGNATURE_HEADER = 'X-Inference-Signature';

/** A signature dated further than this from the receiver's clock, either way, is refused. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/** Why a signature was refused; null when it is valid. */
export type SignatureFailure = 'missing' | 'malformed' | 'mismatch' | 'outside_tolerance';

/** HMAC-SHA256 of the parts, in order, as if concatenated: every signature of the service is one. */
export function hmacSha256(key: string | Uint8Array, ...parts: (string | Uint8Array)[]): Buffer {
  const hmac = createHmac('sha256', key);
  for (const part of parts) hmac.update(part);
  return hmac.digest();
}

function digest(secret: string, timestampSeconds: number, payload: string | Uint8Array): Buffer {
  return hmacSha256(secret, `${timestampSeconds}.`, payload);
}

/** The header value for a payload, dated `timestampSeconds`: one `v1=` per secret given. */
export function signatureHeader(
  payload: string | Uint8Array,
  secrets: string | readonly string[],
  timestampSeconds: number,
): string {
  const list = typeof secrets === 'string' ? [secrets] : secrets;
  return [
    `t=${timestampSeconds}`,
    ...list.map((secret) => `v1=${digest(secret, timestampSeconds, payload).toString('hex')}`),
  ].join(',');
}

/**
 * Checks a header against the raw body: exactly one `t=` (unix seconds), at least one
 * well-formed `v1=`, any of which may match (other schemes such as `v0=` are ignored, as
 * Stripe's receivers do). Comparisons are constant-time.
 */
export function verifySignatureHeader(
  header: string | undefined,
  payload: string | Uint8Array,
  secret: string,
  nowSeconds: number,
  toleranceSeconds = SIGNATURE_TOLERANCE_SECONDS,
): SignatureFailure | null {
  if (header === undefined || header.trim() === '') return 'missing';
  let timestamp: number | null = null;
  const candidates: Buffer[] = [];
  for (const element of header.split(',')) {
    const separator = element.indexOf('=');
    if (separator <= 0) return 'malformed';
    const name = element.slice(0, separator).trim();
    const value = element.slice(separator + 1).trim();
    if (name === 't') {
      if (timestamp !== null || !/^\d{1,12}$/.test(value)) return 'malformed';
      timestamp = Number(value);
    } else if (name === 'v1') {
      if (!/^[0-9a-f]{64}$/i.test(value)) return 'malformed';
      candidates.push(Buffer.from(value, 'hex'));
    }
  }
  if (timestamp === null || candidates.length === 0) return 'malformed';
  const expected = digest(secret, timestamp, payload);
  if (!candidates.some((candidate) => timingSafeEqual(candidate, expected))) return 'mismatch';
  if (Math.abs(nowSeconds - timestamp) > toleranceSeconds) return 'outside_tolerance';
  return null;
}

/** A fresh shared secret for the completion callback: `icsec_` + 32 random bytes in hex. */
export function newCallbackSecret(): string {
  return `icsec_${randomBytes(32).toString('hex')}`;
}
