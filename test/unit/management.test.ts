import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { JoseTokenVerifier } from '../../lambdas/adapters/jose-token-verifier.js';
import { LocalPaymentProvider } from '../../lambdas/adapters/payments/local-payment-provider.js';
import { toBillingEvent } from '../../lambdas/adapters/payments/stripe-webhooks.js';
import { signatureHeader } from '../../lambdas/domain/kernel/signatures.js';
import { PRICES } from '../../lambdas/domain/money/billing-prices.js';
import { AdjustableClock } from '../../lambdas/domain/kernel/clock.js';
import { ApiError } from '../../lambdas/domain/kernel/errors.js';
import { hasRole } from '../../lambdas/domain/access/members.js';
import type { ROLES } from '../../lambdas/domain/access/member.js';
import type { Organization } from '../../lambdas/domain/ports/access.js';
import { compareUsageRows, usageDate, usageWindow, type UsageRow } from '../../lambdas/domain/money/usage.js';
import { loadOrCreateSigningKey, publicKeySet, signDashboardToken } from '../../local/local-issuer.js';

const ISSUER = 'http://127.0.0.1:9999';
const AUDIENCE = 'automotive-inference-mgmt';

async function codeOf(work: Promise<unknown>): Promise<string> {
  try {
    await work;
    return 'ok';
  } catch (error) {
    return error instanceof ApiError ? error.code : `unexpected ${String(error)}`;
  }
}

describe('JoseTokenVerifier', () => {
  it('verifies with the injected clock, and only within the token’s life', async () => {
    const key = await loadOrCreateSigningKey();
    const clock = new AdjustableClock();
    const verifier = JoseTokenVerifier.local(publicKeySet(key), { issuer: ISSUER, audience: AUDIENCE, clock });
    const token = await signDashboardToken(key, { issuer: ISSUER, orgId: 'org_abcdefgh1', role: 'admin', nowSeconds: Math.floor(clock.nowMs() / 1000) });
    await expect(verifier.verify(token)).resolves.toMatchObject({ orgId: 'org_abcdefgh1', role: 'admin' });
    clock.advance(899_000);
    expect(await codeOf(verifier.verify(token))).toBe('ok');
    clock.advance(10_000);
    expect(await codeOf(verifier.verify(token))).toBe('invalid_token');
  });

  it('accepts RS256 from the key set, and refuses a token whose kid the set lacks', async () => {
    const rsa = await generateKeyPair('RS256');
    const jwk = { ...(await exportJWK(rsa.publicKey)), kid: 'rsa-1', alg: 'RS256', use: 'sig' };
    const clock = new AdjustableClock();
    const verifier = JoseTokenVerifier.local({ keys: [jwk] }, { issuer: ISSUER, audience: AUDIENCE, clock });
    const now = Math.floor(clock.nowMs() / 1000);
    const sign = (kid: string) =>
      new SignJWT({ org_id: 'org_abcdefgh1', role: 'member' })
        .setProtectedHeader({ alg: 'RS256', kid })
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setSubject('usr_1')
        .setIssuedAt(now)
        .setExpirationTime(now + 300)
        .sign(rsa.privateKey);
    expect(await codeOf(verifier.verify(await sign('rsa-1')))).toBe('ok');
    expect(await codeOf(verifier.verify(await sign('rsa-2')))).toBe('invalid_token');
  });

  it('answers 503, not 401, when the remote key set cannot be fetched', async () => {
    const verifier = JoseTokenVerifier.remote('http://127.0.0.1:9/.well-known/jwks.json', { issuer: ISSUER, audience: AUDIENCE, clock: new AdjustableClock() });
    const key = await loadOrCreateSigningKey();
    expect(await codeOf(verifier.verify(await signDashboardToken(key, { issuer: ISSUER, orgId: 'org_abcdefgh1', role: 'owner' })))).toBe('service_unavailable');
  });
});

describe('roles', () => {
  it('orders owner > admin > member', () => {
    const member = (role: (typeof ROLES)[number]) => ({ userId: 'usr_1', orgId: 'org_1', role });
    expect(hasRole(member('owner'), 'admin')).toBe(true);
    expect(hasRole(member('admin'), 'admin')).toBe(true);
    expect(hasRole(member('admin'), 'owner')).toBe(false);
    expect(hasRole(member('member'), 'admin')).toBe(false);
    expect(hasRole(member('member'), 'member')).toBe(true);
  });
});

describe('usage', () => {
  it('counts a job on its UTC creation day and orders rows newest day, then endpoint, then live before test', () => {
    expect(usageDate(Date.UTC(2026, 0, 31, 23, 59, 59) / 1000)).toBe('2026-01-31');
    const row = (date: string, endpoint: string, livemode: boolean) => ({ date, endpoint, livemode }) as UsageRow;
    const rows = [row('2026-01-01', 'vin.read', false), row('2026-01-02', 'vin.read', false), row('2026-01-01', 'plate.read', false), row('2026-01-01', 'plate.read', true)];
    expect(rows.sort(compareUsageRows).map((r) => `${r.date} ${r.endpoint} ${r.livemode}`)).toEqual([
      '2026-01-02 vin.read false',
      '2026-01-01 plate.read true',
      '2026-01-01 plate.read false',
      '2026-01-01 vin.read false',
    ]);
  });

  it('defaults to the last 30 days and refuses inverted or over-long windows', () => {
    const now = Date.UTC(2026, 2, 15, 12);
    expect(usageWindow(now)).toEqual({ from: '2026-02-14', to: '2026-03-15' });
    expect(usageWindow(now, undefined, '2026-01-30')).toEqual({ from: '2026-01-01', to: '2026-01-30' });
    expect(usageWindow(now, '2025-01-01', '2026-01-01')).toEqual({ from: '2025-01-01', to: '2026-01-01' });
    expect(() => usageWindow(now, '2025-01-01', '2026-01-02')).toThrow(ApiError);
    expect(() => usageWindow(now, '2026-01-02', '2026-01-01')).toThrow(ApiError);
  });
});

describe('the local payment provider signs exactly like Stripe', () => {
  const secret = 'whsec_unit_test_secret';
  const clock = new AdjustableClock();
  const provider = new LocalPaymentProvider({ baseUrl: 'http://127.0.0.1:1', webhookSecret: secret, clock });
  const org: Organization = { id: 'org_abcdefgh1', name: 'Org', plan: 'free', billing_country: 'DE', storage_retention_days: 30, created: 0 };

  it("Stripe's own helper verifies the local provider's events", async () => {
    const session = await provider.createCheckoutSession({ org, price: PRICES.credits_5000, successUrl: 'https://x/s', cancelUrl: 'https://x/c' });
    const { payload, id } = provider.checkoutCompletedEvent(provider.checkout(session.id)!);
    const event = Stripe.webhooks.constructEvent(payload, provider.signatureFor(payload), secret);
    expect(event.id).toBe(id);
    expect(toBillingEvent(event)).toEqual({ kind: 'payment_succeeded', eventId: id, orgId: org.id, priceId: 'credits_5000', customerId: expect.stringMatching(/^cus_local/) });
    // the same session always pays with the same event id, so paying twice is one deposit
    expect(provider.checkoutCompletedEvent(provider.checkout(session.id)!).id).toBe(id);
  });

  it("the provider verifies Stripe's own test signatures, and refuses others", async () => {
    const payload = JSON.stringify({ id: 'evt_1', object: 'event', type: 'charge.refunded', data: { object: {} } });
    const stripeHeader = Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp: Math.floor(clock.nowMs() / 1000) });
    await expect(provider.parseEvent(Buffer.from(payload), { 'stripe-signature': stripeHeader })).resolves.toEqual({ kind: 'ignored', eventId: 'evt_1', type: 'charge.refunded' });
    expect(signatureHeader(payload, secret, 1_700_000_000)).toBe(Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp: 1_700_000_000 }));
    expect(await codeOf(provider.parseEvent(Buffer.from(payload), { 'stripe-signature': signatureHeader(payload, 'whsec_other', Math.floor(clock.nowMs() / 1000)) }))).toBe(
      'invalid_signature',
    );
    expect(await codeOf(provider.parseEvent(Buffer.from(payload), {}))).toBe('invalid_signature');
  });

  it('session ids are sealed: a tampered one is not a session', async () => {
    const session = await provider.createCheckoutSession({ org, price: PRICES.credits_5000, successUrl: 'https://x/s', cancelUrl: 'https://x/c' });
    const [body, signature] = session.id.slice('cs_local_'.length).split('.');
    const claims = JSON.parse(Buffer.from(body!, 'base64url').toString());
    const richer = Buffer.from(JSON.stringify({ ...claims, p: 'credits_100000' })).toString('base64url');
    expect(provider.checkout(`cs_local_${richer}.${signature}`)).toBeNull();
    clock.advance(24 * 3600 * 1000 + 1000);
    expect(provider.checkout(session.id)).toBeNull();
  });
});
