import { createHmac, timingSafeEqual } from 'node:crypto';
import type { components } from './generated/openapi.js';

export type WebhookEvent = components['schemas']['Event'];

/**
 * Verifies `Svc-Signature: t=…,v1=…` (HMAC-SHA256 of "<t>.<raw body>" with the endpoint secret,
 * any `v1` matching is enough during a rotation) and returns the parsed event. Throws when the
 * signature does not match or the timestamp is more than `toleranceSeconds` away.
 */
export function verifyWebhook(
  rawBody: string | Uint8Array,
  signatureHeader: string | undefined,
  secret: string,
  toleranceSeconds = 300,
  nowSeconds = Math.floor(Date.now() / 1000),
): WebhookEvent {
  if (!signatureHeader) throw new Error('missing Svc-Signature header');
  const parts = signatureHeader.split(',').map((part) => part.trim());
  const timestamp = Number(parts.find((part) => part.startsWith('t='))?.slice(2));
  if (!Number.isInteger(timestamp)) throw new Error('malformed Svc-Signature header');
  if (Math.abs(nowSeconds - timestamp) > toleranceSeconds) throw new Error('webhook timestamp outside the tolerance');
  // a Buffer is a Uint8Array: the signature takes the bytes as the sender wrote them, without Node's types in ours
  const body = typeof rawBody === 'string' ? rawBody : new TextDecoder().decode(rawBody);
  const expected = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest();
  const matches = parts
    .filter((part) => part.startsWith('v1='))
    .some((part) => {
      const given = Buffer.from(part.slice(3), 'hex');
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
  if (!matches) throw new Error('webhook signature does not match');
  return JSON.parse(body) as WebhookEvent;
}
