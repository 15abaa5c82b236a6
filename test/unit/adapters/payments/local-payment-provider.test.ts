import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { LocalPaymentProvider } from '../../../../lambdas/adapters/payments/local-payment-provider.js';
import { toBillingEvent } from '../../../../lambdas/adapters/payments/stripe-webhooks.js';
import { AdjustableClock } from '../../../../lambdas/domain/kernel/clock.js';
import { signatureHeader } from '../../../../lambdas/domain/kernel/signatures.js';
import { PRICES } from '../../../../lambdas/domain/money/billing-prices.js';
import type { Organization } from '../../../../lambdas/domain/ports/access.js';
import { codeOf } from '../../../support/api-errors.js';

describe('the local payment provider signs exactly like Stripe', () => {
  const secret = 'whsec_unit_test_secret';
  const clock = new AdjustableClock();
  const provider = new LocalPaymentProvider({ baseUrl: 'http://127.0.0.1:1', webhookSecret: secret, clock });
  const org: Organization = {
    id: 'org_abcdefgh1',
    name: 'Org',
    plan: 'free',
    billing_country: 'DE',
    storage_retention_days: 30,
    created: 0,
  };

  it("Stripe's own helper verifies the local provider's events", async () => {
    const session = await provider.createCheckoutSession({
      org,
      price: PRICES.credits_5000,
      successUrl: 'https://x/s',
      cancelUrl: 'https://x/c',
    });
    const { payload, id } = provider.checkoutCompletedEvent(provider.checkout(session.id)!);
    const event = Stripe.webhooks.constructEvent(payload, provider.signatureFor(payload), secret);
    expect(event.id).toBe(id);
    expect(toBillingEvent(event)).toEqual({
      kind: 'payment_succeeded',
      eventId: id,
      orgId: org.id,
      priceId: 'credits_5000',
      customerId: expect.stringMatching(/^cus_local/),
    });
    // the same session always pays with the same event id, so paying twice is one deposit
    expect(provider.checkoutCompletedEvent(provider.checkout(session.id)!).id).toBe(id);
  });

  it("the provider verifies Stripe's own test signatures, and refuses others", async () => {
    const payload = JSON.stringify({ id: 'evt_1', object: 'event', type: 'charge.refunded', data: { object: {} } });
    const stripeHeader = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret,
      timestamp: Math.floor(clock.nowMs() / 1000),
    });
    await expect(provider.parseEvent(Buffer.from(payload), { 'stripe-signature': stripeHeader })).resolves.toEqual({
      kind: 'ignored',
      eventId: 'evt_1',
      type: 'charge.refunded',
    });
    expect(signatureHeader(payload, secret, 1_700_000_000)).toBe(
      Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp: 1_700_000_000 }),
    );
    expect(
      await codeOf(
        provider.parseEvent(Buffer.from(payload), {
          'stripe-signature': signatureHeader(payload, 'whsec_other', Math.floor(clock.nowMs() / 1000)),
        }),
      ),
    ).toBe('invalid_signature');
    expect(await codeOf(provider.parseEvent(Buffer.from(payload), {}))).toBe('invalid_signature');
  });

  it('session ids are sealed: a tampered one is not a session', async () => {
    const session = await provider.createCheckoutSession({
      org,
      price: PRICES.credits_5000,
      successUrl: 'https://x/s',
      cancelUrl: 'https://x/c',
    });
    const [body, signature] = session.id.slice('cs_local_'.length).split('.');
    const claims = JSON.parse(Buffer.from(body!, 'base64url').toString());
    const richer = Buffer.from(JSON.stringify({ ...claims, p: 'credits_100000' })).toString('base64url');
    expect(provider.checkout(`cs_local_${richer}.${signature}`)).toBeNull();
    clock.advance(24 * 3600 * 1000 + 1000);
    expect(provider.checkout(session.id)).toBeNull();
  });
});
