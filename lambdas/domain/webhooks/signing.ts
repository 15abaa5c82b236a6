import { createHmac, randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';

/** `whsec_` + 32 random bytes in base64 (docs/webhooks.md, "Headers and verification"). */
export function newWebhookSecret(): string {
  return `${PREFIX}${randomBytes(32).toString('base64')}`;
}

/**
 * The headers that sign one delivery, for every active secret: `Svc-Signature` is Stripe's scheme
 * (HMAC-SHA256 keyed with the secret string over `<t>.<body>`, hex), `webhook-signature` is
 * Standard Webhooks' (keyed with the base64-decoded secret over `<id>.<t>.<body>`, base64).
 */
export function signatureHeaders(secrets: readonly string[], eventId: string, timestampSeconds: number, body: string): Record<string, string> {
  const stripe = secrets.map((secret) => `v1=${createHmac('sha256', secret).update(`${timestampSeconds}.${body}`).digest('hex')}`);
  const standard = secrets.map(
    (secret) =>
      `v1,${createHmac('sha256', Buffer.from(secret.slice(PREFIX.length), 'base64'))
        .update(`${eventId}.${timestampSeconds}.${body}`)
        .digest('base64')}`,
  );
  return {
    'Svc-Signature': [`t=${timestampSeconds}`, ...stripe].join(','),
    'webhook-id': eventId,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': standard.join(' '),
  };
}
