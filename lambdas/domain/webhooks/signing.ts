import { randomBytes } from 'node:crypto';
import { hmacSha256, signatureHeader } from '../kernel/signatures.js';

const PREFIX = 'whsec_';

/** `whsec_` + 32 random bytes in base64 (docs/internals/webhooks.md, "Headers and verification"). */
export function newWebhookSecret(): string {
  return `${PREFIX}${randomBytes(32).toString('base64')}`;
}

/**
 * The headers that sign one delivery, for every active secret: `Svc-Signature` is the service's
 * Stripe-compatible scheme (`signatureHeader`), `webhook-signature` is Standard Webhooks' (keyed
 * with the base64-decoded secret over `<id>.<t>.<body>`, base64).
 */
export function signatureHeaders(
  secrets: readonly string[],
  eventId: string,
  timestampSeconds: number,
  body: string,
): Record<string, string> {
  const standard = secrets.map(
    (secret) =>
      `v1,${hmacSha256(Buffer.from(secret.slice(PREFIX.length), 'base64'), `${eventId}.${timestampSeconds}.`, body).toString('base64')}`,
  );
  return {
    'Svc-Signature': signatureHeader(body, secrets, timestampSeconds),
    'webhook-id': eventId,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': standard.join(' '),
  };
}
