import { describe, expect, it } from 'vitest';
import { epochSeconds } from '../../../../lambdas/domain/kernel/clock.js';
import { signatureHeader } from '../../../../lambdas/domain/kernel/signatures.js';
import type { PRICES } from '../../../../lambdas/domain/money/billing-prices.js';
import { call, expectEnvelope } from '../../../support/http.js';
import { ledgerSum } from '../../../support/ledger.js';
import { asRole } from '../../../support/management.js';
import { sharedTestService } from '../../../support/service.js';

const svc = sharedTestService();

const EVENTS = '/internal/v1/billing/events';
const balances = async (org = svc.org) => ({
  live: await svc.services.accounts.getBalance(org.organization.id, true),
  test: await svc.services.accounts.getBalance(org.organization.id, false),
});
const postEvent = (payload: string, signature?: string) =>
  call(svc.baseUrl, 'POST', EVENTS, {
    rawBody: payload,
    headers: { 'Content-Type': 'application/json', ...(signature ? { 'Stripe-Signature': signature } : {}) },
  });

async function checkout(price: keyof typeof PRICES, org = svc.org) {
  const response = await asRole(svc, 'owner', 'POST', '/mgmt/v1/billing/checkout', { json: { price }, org });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as { id: string; url: string; expires_at: number; price: string; mode: string; object: string };
}

/** A signed Stripe-shaped event as the provider would send it. */
function providerEvent(
  type: string,
  object: Record<string, unknown>,
  id = `evt_test${Math.random().toString(36).slice(2, 12)}`,
): string {
  return JSON.stringify({
    id,
    object: 'event',
    type,
    created: epochSeconds(svc.clock),
    livemode: false,
    api_version: '2026-01-28.clover',
    data: { object },
  });
}

describe('checkout → provider event → deposit, exactly once', () => {
  it('opens a checkout session whose local page pays, deposits the price’s credits once, and a second payment adds nothing', async () => {
    const before = await balances();
    const session = await checkout('credits_5000');
    expect(session).toMatchObject({ object: 'checkout_session', price: 'credits_5000', mode: 'payment' });
    expect(session.url.startsWith(`${svc.baseUrl}/local/checkout/`)).toBe(true);
    expect(session.expires_at).toBeGreaterThan(epochSeconds(svc.clock));

    const page = await fetch(session.url);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Pay $50.00');
    expect(html).toContain('<form method="post"');

    const paid = await fetch(`${session.url}/pay`, { method: 'POST' });
    expect(paid.status).toBe(200);
    expect(await paid.text()).toContain('data-outcome="applied"');
    expect(await balances()).toEqual({ live: before.live + 5000, test: before.test });

    const ledger = await asRole(svc, 'member', 'GET', '/mgmt/v1/ledger?livemode=true&limit=1');
    expect(ledger.body.data[0]).toMatchObject({ kind: 'deposit', amount: 5000, livemode: true, job_id: null });

    const again = await fetch(`${session.url}/pay`, { method: 'POST' });
    expect(await again.text()).toContain('data-outcome="duplicate"');
    expect(await balances()).toEqual({ live: before.live + 5000, test: before.test });
    expect(await ledgerSum(svc.services, svc.org.organization.id, true)).toBe(before.live + 5000);
  });

  it('a replayed event (same bytes, fresh or original signature) deposits nothing', async () => {
    const session = await checkout('credits_25000');
    const local = svc.payments.checkout(session.id)!;
    const { payload } = svc.payments.checkoutCompletedEvent(local);
    const signature = svc.payments.signatureFor(payload);
    const before = await balances();
    const first = await postEvent(payload, signature);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ received: true, outcome: 'applied' });
    const replays = await Promise.all([
      postEvent(payload, signature),
      postEvent(payload, signature),
      postEvent(payload, svc.payments.signatureFor(payload)),
    ]);
    for (const replay of replays) expect(replay.body).toEqual({ received: true, outcome: 'duplicate' });
    expect(await balances()).toEqual({ live: before.live + 25_000, test: before.test });
  });

  it('concurrent deliveries of one event deposit once', async () => {
    const session = await checkout('credits_5000');
    const { payload } = svc.payments.checkoutCompletedEvent(svc.payments.checkout(session.id)!);
    const before = await balances();
    const outcomes = await Promise.all(
      Array.from({ length: 5 }, () => postEvent(payload, svc.payments.signatureFor(payload))),
    );
    expect(outcomes.map((r) => r.body.outcome).sort()).toEqual([
      'applied',
      'duplicate',
      'duplicate',
      'duplicate',
      'duplicate',
    ]);
    expect((await balances()).live).toBe(before.live + 5000);
  });

  it('credits come from the price table, never from the amount paid', async () => {
    const before = await balances();
    const payload = providerEvent('checkout.session.completed', {
      id: 'cs_test_cheap',
      object: 'checkout.session',
      mode: 'payment',
      payment_status: 'paid',
      amount_total: 1,
      client_reference_id: svc.org.organization.id,
      metadata: { org_id: svc.org.organization.id, price: 'credits_100000' },
    });
    expect((await postEvent(payload, svc.payments.signatureFor(payload))).body.outcome).toBe('applied');
    expect((await balances()).live).toBe(before.live + 100_000);
  });

  it('a subscription checkout moves the organisation to the plan and grants the plan’s credits; its end moves it back', async () => {
    const other = svc.otherOrg;
    expect((await asRole(svc, 'member', 'GET', '/mgmt/v1/organization', { org: other })).body.plan).toBe('free');
    const before = await balances(other);
    const session = await checkout('plan_pro_monthly', other);
    expect(session.mode).toBe('subscription');
    expect(await (await fetch(`${session.url}/pay`, { method: 'POST' })).text()).toContain('data-outcome="applied"');
    const upgraded = (await asRole(svc, 'member', 'GET', '/mgmt/v1/organization', { org: other })).body;
    expect(upgraded.plan).toBe('pro');
    expect(upgraded.balance).toEqual({ live: before.live + 50_000, test: before.test });

    const renewal = providerEvent('invoice.paid', {
      id: 'in_1',
      object: 'invoice',
      billing_reason: 'subscription_cycle',
      customer: 'cus_x',
      parent: {
        type: 'subscription_details',
        subscription_details: { metadata: { org_id: other.organization.id, price: 'plan_pro_monthly' } },
      },
    });
    expect((await postEvent(renewal, svc.payments.signatureFor(renewal))).body.outcome).toBe('applied');
    expect((await balances(other)).live).toBe(before.live + 100_000);

    const ended = providerEvent('customer.subscription.deleted', {
      id: 'sub_1',
      object: 'subscription',
      metadata: { org_id: other.organization.id, price: 'plan_pro_monthly' },
    });
    expect((await postEvent(ended, svc.payments.signatureFor(ended))).body.outcome).toBe('applied');
    expect((await asRole(svc, 'member', 'GET', '/mgmt/v1/organization', { org: other })).body.plan).toBe('free');
    expect(await ledgerSum(svc.services, other.organization.id, true)).toBe(before.live + 100_000);
  });

  it('acknowledges events that grant nothing: unpaid sessions, unknown prices or organisations, other event types', async () => {
    const before = await balances();
    const org = svc.org.organization.id;
    const cases = [
      providerEvent('checkout.session.completed', {
        id: 'cs_1',
        object: 'checkout.session',
        payment_status: 'unpaid',
        metadata: { org_id: org, price: 'credits_5000' },
      }),
      providerEvent('checkout.session.completed', {
        id: 'cs_2',
        object: 'checkout.session',
        payment_status: 'paid',
        metadata: { org_id: org, price: 'credits_999999' },
      }),
      providerEvent('checkout.session.completed', {
        id: 'cs_3',
        object: 'checkout.session',
        payment_status: 'paid',
        metadata: { org_id: 'org_doesNotExist1', price: 'credits_5000' },
      }),
      providerEvent('invoice.paid', {
        id: 'in_2',
        object: 'invoice',
        billing_reason: 'subscription_create',
        parent: { subscription_details: { metadata: { org_id: org, price: 'plan_pro_monthly' } } },
      }),
      providerEvent('charge.refunded', { id: 'ch_1', object: 'charge' }),
    ];
    for (const payload of cases) {
      const response = await postEvent(payload, svc.payments.signatureFor(payload));
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ received: true, outcome: 'ignored' });
    }
    expect(await balances()).toEqual(before);
  });
});

describe('forged provider events', () => {
  const forgedCases: Array<[string, (payload: string) => string | undefined]> = [
    ['unsigned', () => undefined],
    [
      'signed with another secret',
      (payload) => signatureHeader(payload, 'whsec_not_the_right_secret', epochSeconds(svc.clock)),
    ],
    ['with a signature of another body', () => svc.payments.signatureFor('{"id":"evt_other"}')],
    ['with a malformed header', () => 'v1=deadbeef'],
  ];

  for (const [name, sign] of forgedCases) {
    it(`rejects an event ${name} with 401 invalid_signature and deposits nothing`, async () => {
      const before = await balances();
      const payload = providerEvent('checkout.session.completed', {
        id: 'cs_forged',
        object: 'checkout.session',
        payment_status: 'paid',
        metadata: { org_id: svc.org.organization.id, price: 'credits_100000' },
      });
      expectEnvelope(
        await postEvent(payload, sign(payload)),
        401,
        'authentication',
        'invalid_signature',
        'Stripe-Signature',
      );
      expect(await balances()).toEqual(before);
    });
  }

  it('rejects a tampered body under a genuine signature, and a signature older than five minutes', async () => {
    const before = await balances();
    const payload = providerEvent('checkout.session.completed', {
      id: 'cs_t',
      object: 'checkout.session',
      payment_status: 'paid',
      metadata: { org_id: svc.org.organization.id, price: 'credits_5000' },
    });
    const signature = svc.payments.signatureFor(payload);
    expectEnvelope(
      await postEvent(payload.replace('credits_5000', 'credits_100000'), signature),
      401,
      'authentication',
      'invalid_signature',
    );
    svc.clock.advance(301_000);
    expectEnvelope(await postEvent(payload, signature), 401, 'authentication', 'invalid_signature');
    expect(await balances()).toEqual(before);
  });

  it('a checkout page for a forged or tampered session id is 404', async () => {
    const session = await checkout('credits_5000');
    const tampered = session.url.replace(/.$/, (c) => (c === 'a' ? 'b' : 'a'));
    expect((await fetch(tampered)).status).toBe(404);
    expect((await fetch(`${svc.baseUrl}/local/checkout/cs_local_bm90aGluZw.0000`)).status).toBe(404);
    expect((await fetch(`${tampered}/pay`, { method: 'POST' })).status).toBe(404);
  });
});

describe('checkout and portal requests', () => {
  it('validates the checkout body', async () => {
    expectEnvelope(
      await asRole(svc, 'owner', 'POST', '/mgmt/v1/billing/checkout', { json: {} }),
      400,
      'invalid_request',
      'parameter_missing',
      'price',
    );
    expectEnvelope(
      await asRole(svc, 'owner', 'POST', '/mgmt/v1/billing/checkout', { json: { price: 'credits_1' } }),
      400,
      'invalid_request',
      'parameter_invalid',
      'price',
    );
    expectEnvelope(
      await asRole(svc, 'owner', 'POST', '/mgmt/v1/billing/checkout', { json: { price: 'credits_5000', amount: 1 } }),
      400,
      'invalid_request',
      'parameter_unknown',
      'amount',
    );
    expectEnvelope(
      await asRole(svc, 'owner', 'POST', '/mgmt/v1/billing/checkout', {
        json: { price: 'credits_5000', success_url: 'javascript:alert(1)' },
      }),
      400,
      'invalid_request',
      'parameter_invalid',
      'success_url',
    );
  });

  it('opens a short-lived portal link for the owner', async () => {
    const response = await asRole(svc, 'owner', 'POST', '/mgmt/v1/billing/portal', {
      json: { return_url: 'https://dashboard.example/billing' },
    });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(['expires_at', 'url']);
    expect(response.body.expires_at - epochSeconds(svc.clock)).toBeLessThanOrEqual(300);
    const page = await fetch(response.body.url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('https://dashboard.example/billing');
    const withoutBody = await asRole(svc, 'owner', 'POST', '/mgmt/v1/billing/portal');
    expect(withoutBody.status).toBe(200);
  });

  it('sends the user back to the dashboard billing page by default, from the portal and from checkout', async () => {
    const billingPage = `${svc.baseUrl}/dashboard/billing`;
    const portal = await asRole(svc, 'owner', 'POST', '/mgmt/v1/billing/portal', { json: {} });
    expect(await (await fetch(portal.body.url)).text()).toContain(`href="${billingPage}"`);
    const session = await checkout('credits_5000');
    expect(await (await fetch(session.url)).text()).toContain(`href="${billingPage}?checkout=canceled"`);
    const paid = await fetch(`${session.url}/pay`, { method: 'POST' });
    expect(await paid.text()).toContain(`href="${billingPage}?checkout=succeeded"`);
    // the page itself is served: the dashboard's client-side route
    expect((await fetch(billingPage)).status).toBe(200);
  });
});
