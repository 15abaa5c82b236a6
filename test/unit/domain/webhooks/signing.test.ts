import { Webhook } from 'standardwebhooks';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { newWebhookSecret, signatureHeaders } from '../../../../lambdas/domain/webhooks/signing.js';

const stripe = new Stripe('sk_test_unused');
const body = JSON.stringify({ id: 'evt_1', object: 'event', type: 'job.succeeded' });

describe('webhook signatures (docs/internals/webhooks.md)', () => {
  it('secrets are whsec_ + 32 random bytes in base64', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(secret);
  });

  it("Svc-Signature verifies with Stripe's constructEvent; the Standard Webhooks trio with standardwebhooks", () => {
    const secret = newWebhookSecret();
    const now = Math.floor(Date.now() / 1000);
    const headers = signatureHeaders([secret], 'evt_1', now, body);
    expect(headers['Svc-Signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(headers['webhook-id']).toBe('evt_1');
    expect(headers['webhook-timestamp']).toBe(String(now));
    expect(stripe.webhooks.constructEvent(body, headers['Svc-Signature']!, secret, 300).id).toBe('evt_1');
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('during a rotation every active secret signs, and either verifies', () => {
    const [current, previous] = [newWebhookSecret(), newWebhookSecret()];
    const headers = signatureHeaders([current, previous], 'evt_1', Math.floor(Date.now() / 1000), body);
    expect(headers['Svc-Signature']!.split(',').filter((part) => part.startsWith('v1='))).toHaveLength(2);
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    for (const secret of [current, previous]) {
      expect(stripe.webhooks.constructEvent(body, headers['Svc-Signature']!, secret, 300).id).toBe('evt_1');
      expect(new Webhook(secret).verify(body, headers)).toBeTruthy();
    }
    expect(() => stripe.webhooks.constructEvent(body, headers['Svc-Signature']!, newWebhookSecret(), 300)).toThrow();
  });
});
