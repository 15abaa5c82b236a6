import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { StripePaymentProvider } from '../../../../lambdas/adapters/payments/stripe-payment-provider.js';
import { formEncode, STRIPE_API_VERSION } from '../../../../lambdas/adapters/payments/stripe-rest.js';
import { AdjustableClock } from '../../../../lambdas/domain/kernel/clock.js';
import { ApiError } from '../../../../lambdas/domain/kernel/errors.js';
import { PRICES } from '../../../../lambdas/domain/money/billing-prices.js';
import type { Organization } from '../../../../lambdas/domain/ports/access.js';

const SECRET_KEY = 'sk_test_unit';
const WEBHOOK_SECRET = 'whsec_unit_current';
const clock = new AdjustableClock();
const nowSeconds = () => Math.floor(clock.nowMs() / 1000);
const org: Organization = {
  id: 'org_abcdefgh1',
  name: 'Acme & Söhne',
  plan: 'free',
  billing_country: 'DE',
  storage_retention_days: 30,
  created: 0,
};

async function failure(work: Promise<unknown>): Promise<ApiError> {
  const error = await work.then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!(error instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return error;
}

/** Stripe's scheme computed here independently of the adapter: HMAC-SHA256(secret, "<t>.<body>") in hex. */
function v1(payload: string, secret: string, timestamp: number): string {
  return createHmac('sha256', secret).update(`${timestamp}.${payload}`).digest('hex');
}

describe('Stripe webhook signatures are verified as Stripe documents them', () => {
  const provider = new StripePaymentProvider({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, clock });
  const payload = JSON.stringify({
    id: 'evt_1',
    object: 'event',
    type: 'checkout.session.completed',
    data: {
      object: {
        object: 'checkout.session',
        payment_status: 'paid',
        metadata: { org_id: org.id, price: 'credits_5000' },
        customer: 'cus_1',
      },
    },
  });
  const paid = {
    kind: 'payment_succeeded',
    eventId: 'evt_1',
    orgId: org.id,
    priceId: 'credits_5000',
    customerId: 'cus_1',
  };
  const parse = (body: string, header: string | undefined) =>
    provider.parseEvent(Buffer.from(body), header === undefined ? {} : { 'stripe-signature': header });

  it("accepts a body signed by Stripe's own helper, and reads the event", async () => {
    const header = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: WEBHOOK_SECRET,
      timestamp: nowSeconds(),
    });
    await expect(parse(payload, header)).resolves.toEqual(paid);
  });

  it('refuses a tampered body, another secret, a missing header and a header without v1', async () => {
    const header = `t=${nowSeconds()},v1=${v1(payload, WEBHOOK_SECRET, nowSeconds())}`;
    const tampered = payload.replace('credits_5000', 'credits_100000');
    expect((await failure(parse(tampered, header))).code).toBe('invalid_signature');
    expect(
      (await failure(parse(payload, `t=${nowSeconds()},v1=${v1(payload, 'whsec_other', nowSeconds())}`))).code,
    ).toBe('invalid_signature');
    expect((await failure(parse(payload, undefined))).code).toBe('invalid_signature');
    // v0 is test mode's legacy scheme: never trusted, even when its value is the right HMAC
    expect(
      (await failure(parse(payload, `t=${nowSeconds()},v0=${v1(payload, WEBHOOK_SECRET, nowSeconds())}`))).code,
    ).toBe('invalid_signature');
    expect((await failure(parse(payload, 'garbage'))).param).toBe('Stripe-Signature');
  });

  it('refuses a timestamp older than 300 s, even with a valid signature for it; accepts one just inside', async () => {
    const stale = nowSeconds() - 301;
    expect((await failure(parse(payload, `t=${stale},v1=${v1(payload, WEBHOOK_SECRET, stale)}`))).code).toBe(
      'invalid_signature',
    );
    const recent = nowSeconds() - 290;
    await expect(parse(payload, `t=${recent},v1=${v1(payload, WEBHOOK_SECRET, recent)}`)).resolves.toEqual(paid);
    // the signed timestamp cannot be moved forward without breaking the signature
    expect((await failure(parse(payload, `t=${nowSeconds()},v1=${v1(payload, WEBHOOK_SECRET, stale)}`))).code).toBe(
      'invalid_signature',
    );
  });

  it('accepts the second v1 while Stripe rolls the secret: any v1 may match', async () => {
    const t = nowSeconds();
    const rolling = `t=${t},v1=${v1(payload, 'whsec_unit_previous', t)},v1=${v1(payload, WEBHOOK_SECRET, t)}`;
    await expect(parse(payload, rolling)).resolves.toEqual(paid);
    const previousOnly = new StripePaymentProvider({
      secretKey: SECRET_KEY,
      webhookSecret: 'whsec_unit_previous',
      clock,
    });
    await expect(previousOnly.parseEvent(Buffer.from(payload), { 'stripe-signature': rolling })).resolves.toEqual(paid);
    const neither = `t=${t},v1=${v1(payload, 'whsec_a', t)},v1=${v1(payload, 'whsec_b', t)}`;
    expect((await failure(parse(payload, neither))).code).toBe('invalid_signature');
  });

  it('verifies the raw bytes, and refuses a signed body that is not an event', async () => {
    const t = nowSeconds();
    expect((await failure(parse('not json', `t=${t},v1=${v1('not json', WEBHOOK_SECRET, t)}`))).code).toBe(
      'invalid_signature',
    );
    const reformatted = JSON.stringify(JSON.parse(payload), null, 2);
    expect((await failure(parse(reformatted, `t=${t},v1=${v1(payload, WEBHOOK_SECRET, t)}`))).code).toBe(
      'invalid_signature',
    );
  });

  it('translates renewals, ended subscriptions and unpaid checkouts from the event objects Stripe sends', async () => {
    const signed = async (event: object) => {
      const body = JSON.stringify(event);
      return parse(body, `t=${nowSeconds()},v1=${v1(body, WEBHOOK_SECRET, nowSeconds())}`);
    };
    const metadata = { org_id: org.id, price: 'plan_pro_monthly' };
    await expect(
      signed({
        id: 'evt_2',
        type: 'invoice.paid',
        data: {
          object: {
            billing_reason: 'subscription_cycle',
            customer: { id: 'cus_2', object: 'customer' },
            parent: { subscription_details: { metadata } },
          },
        },
      }),
    ).resolves.toEqual({
      kind: 'payment_succeeded',
      eventId: 'evt_2',
      orgId: org.id,
      priceId: 'plan_pro_monthly',
      customerId: 'cus_2',
    });
    await expect(
      signed({
        id: 'evt_3',
        type: 'invoice.paid',
        data: { object: { billing_reason: 'subscription_create', parent: { subscription_details: { metadata } } } },
      }),
    ).resolves.toEqual({
      kind: 'ignored',
      eventId: 'evt_3',
      type: 'invoice.paid',
    });
    await expect(
      signed({ id: 'evt_4', type: 'customer.subscription.deleted', data: { object: { metadata } } }),
    ).resolves.toEqual({
      kind: 'subscription_ended',
      eventId: 'evt_4',
      orgId: org.id,
    });
    await expect(
      signed({
        id: 'evt_5',
        type: 'checkout.session.completed',
        data: { object: { payment_status: 'unpaid', metadata: { org_id: org.id, price: 'credits_5000' } } },
      }),
    ).resolves.toEqual({ kind: 'ignored', eventId: 'evt_5', type: 'checkout.session.completed' });
  });
});

interface Received {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  form: Record<string, string>;
}

describe("the Stripe provider's REST calls", () => {
  let server: Server;
  let baseUrl: string;
  const received: Received[] = [];
  /** answers to hand out before the normal ones, by path: status and body */
  const scripted = new Map<string, Array<{ status: number; body: unknown; headers?: Record<string, string> }>>();

  const normal = (path: string): unknown => {
    switch (path) {
      case '/v1/prices':
        return { object: 'list', data: [{ id: 'price_123', object: 'price' }], has_more: false };
      case '/v1/checkout/sessions':
        return {
          id: 'cs_test_1',
          object: 'checkout.session',
          url: 'https://checkout.stripe.com/c/pay/cs_test_1',
          expires_at: 1_800_000_000,
        };
      case '/v1/customers':
        return { id: 'cus_new', object: 'customer' };
      case '/v1/billing_portal/sessions':
        return {
          id: 'bps_1',
          object: 'billing_portal.session',
          url: 'https://billing.stripe.com/p/session/test_1',
          created: 1_700_000_000,
        };
      default:
        return null;
    }
  };

  beforeAll(async () => {
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const url = new URL(request.url ?? '/', 'http://stripe.test');
        received.push({
          method: request.method ?? '',
          path: url.pathname,
          query: url.searchParams,
          headers: request.headers,
          form: Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))),
        });
        const next = scripted.get(url.pathname)?.shift();
        const body = next ? next.body : normal(url.pathname);
        const status = next ? next.status : body === null ? 404 : 200;
        response.writeHead(status, { 'Content-Type': 'application/json', ...next?.headers }).end(JSON.stringify(body));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    received.length = 0;
    scripted.clear();
  });

  const provider = () =>
    new StripePaymentProvider({
      secretKey: SECRET_KEY,
      webhookSecret: WEBHOOK_SECRET,
      clock,
      apiBaseUrl: baseUrl,
      initialRetryDelayMs: 1,
    });
  const urls = { successUrl: 'https://app.example/billing?paid=1', cancelUrl: 'https://app.example/billing' };

  it('a top-up checkout finds the price by lookup key once, then creates a payment session with our metadata', async () => {
    const stripe = provider();
    await expect(stripe.createCheckoutSession({ org, price: PRICES.credits_5000, ...urls })).resolves.toEqual({
      id: 'cs_test_1',
      url: 'https://checkout.stripe.com/c/pay/cs_test_1',
      expiresAt: 1_800_000_000,
    });
    const [lookup, create] = received;
    expect(lookup).toMatchObject({ method: 'GET', path: '/v1/prices' });
    expect(Object.fromEntries(lookup!.query)).toEqual({ 'lookup_keys[0]': 'credits_5000', active: 'true', limit: '1' });
    expect(lookup!.headers['idempotency-key']).toBeUndefined();
    expect(create).toMatchObject({ method: 'POST', path: '/v1/checkout/sessions' });
    expect(create!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(create!.form).toEqual({
      mode: 'payment',
      'line_items[0][price]': 'price_123',
      'line_items[0][quantity]': '1',
      client_reference_id: org.id,
      'metadata[org_id]': org.id,
      'metadata[price]': 'credits_5000',
      success_url: urls.successUrl,
      cancel_url: urls.cancelUrl,
      customer_creation: 'always',
      'payment_intent_data[metadata][org_id]': org.id,
      'payment_intent_data[metadata][price]': 'credits_5000',
    });
    for (const request of received) {
      expect(request.headers.authorization).toBe(`Bearer ${SECRET_KEY}`);
      expect(request.headers['stripe-version']).toBe(STRIPE_API_VERSION);
    }
    expect(create!.headers['idempotency-key']).toMatch(/^ais-retry-[0-9a-f-]{36}$/);

    received.length = 0;
    await stripe.createCheckoutSession({ org, price: PRICES.credits_5000, ...urls });
    expect(received.map((request) => request.path)).toEqual(['/v1/checkout/sessions']);
  });

  it('a subscription checkout of an organisation with a customer reuses it and puts our metadata on the subscription', async () => {
    await provider().createCheckoutSession({
      org: { ...org, billing_customer_id: 'cus_known' },
      price: PRICES.plan_pro_monthly,
      ...urls,
    });
    const create = received.find((request) => request.path === '/v1/checkout/sessions')!;
    expect(create.form).toMatchObject({
      mode: 'subscription',
      customer: 'cus_known',
      'subscription_data[metadata][org_id]': org.id,
      'subscription_data[metadata][price]': 'plan_pro_monthly',
    });
    expect(
      Object.keys(create.form).filter((key) => key.startsWith('payment_intent_data') || key === 'customer_creation'),
    ).toEqual([]);
  });

  it('a portal session creates the customer first when the organisation has none, and dates its expiry from its creation', async () => {
    await expect(provider().createPortalSession({ org, returnUrl: 'https://app.example/billing' })).resolves.toEqual({
      id: 'bps_1',
      url: 'https://billing.stripe.com/p/session/test_1',
      expiresAt: 1_700_000_300,
      customerId: 'cus_new',
    });
    expect(received.map((request) => [request.method, request.path])).toEqual([
      ['POST', '/v1/customers'],
      ['POST', '/v1/billing_portal/sessions'],
    ]);
    expect(received[0]!.form).toEqual({ name: 'Acme & Söhne', 'metadata[org_id]': org.id });
    expect(received[1]!.form).toEqual({ customer: 'cus_new', return_url: 'https://app.example/billing' });
    expect(received[0]!.headers['idempotency-key']).not.toBe(received[1]!.headers['idempotency-key']);

    received.length = 0;
    await provider().createPortalSession({
      org: { ...org, billing_customer_id: 'cus_known' },
      returnUrl: 'https://app.example/billing',
    });
    expect(received.map((request) => request.path)).toEqual(['/v1/billing_portal/sessions']);
    expect(received[0]!.form.customer).toBe('cus_known');
  });

  it('retries a 5xx or a 409 with the same Idempotency-Key, never a 4xx', async () => {
    scripted.set('/v1/customers', [
      { status: 500, body: { error: { type: 'api_error' } } },
      { status: 409, body: { error: { type: 'idempotency_error' } } },
    ]);
    await expect(
      provider().createPortalSession({ org, returnUrl: 'https://app.example/billing' }),
    ).resolves.toMatchObject({ customerId: 'cus_new' });
    const attempts = received.filter((request) => request.path === '/v1/customers');
    expect(attempts).toHaveLength(3);
    expect(new Set(attempts.map((request) => request.headers['idempotency-key'])).size).toBe(1);

    received.length = 0;
    scripted.set('/v1/billing_portal/sessions', [
      { status: 400, body: { error: { type: 'invalid_request_error', message: 'No such customer: cus_gone' } } },
    ]);
    const refused = await failure(
      provider().createPortalSession({
        org: { ...org, billing_customer_id: 'cus_gone' },
        returnUrl: 'https://app.example/billing',
      }),
    );
    expect(refused.code).toBe('service_unavailable');
    expect(refused.message).not.toContain('cus_gone');
    expect(received).toHaveLength(1);
  });

  it('gives up after two retries, and honours Stripe-Should-Retry: false', async () => {
    scripted.set('/v1/checkout/sessions', [
      { status: 503, body: {} },
      { status: 503, body: {} },
      { status: 503, body: {} },
    ]);
    expect((await failure(provider().createCheckoutSession({ org, price: PRICES.credits_5000, ...urls }))).code).toBe(
      'service_unavailable',
    );
    expect(received.filter((request) => request.path === '/v1/checkout/sessions')).toHaveLength(3);

    received.length = 0;
    scripted.set('/v1/checkout/sessions', [{ status: 500, body: {}, headers: { 'Stripe-Should-Retry': 'false' } }]);
    expect((await failure(provider().createCheckoutSession({ org, price: PRICES.credits_5000, ...urls }))).code).toBe(
      'service_unavailable',
    );
    expect(received.filter((request) => request.path === '/v1/checkout/sessions')).toHaveLength(1);
  });

  it('an unreachable API or a price without a lookup key is a 503, not the caller’s fault', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const unreachable = new StripePaymentProvider({
      secretKey: SECRET_KEY,
      webhookSecret: WEBHOOK_SECRET,
      clock,
      apiBaseUrl: `http://127.0.0.1:${port}`,
      initialRetryDelayMs: 1,
    });
    expect((await failure(unreachable.createCheckoutSession({ org, price: PRICES.credits_5000, ...urls }))).code).toBe(
      'service_unavailable',
    );

    scripted.set('/v1/prices', [{ status: 200, body: { object: 'list', data: [] } }]);
    expect((await failure(provider().createCheckoutSession({ org, price: PRICES.credits_5000, ...urls }))).code).toBe(
      'service_unavailable',
    );
  });

  it('encodes forms as the SDK does: bracketed keys, indexed arrays, nothing for undefined', () => {
    expect(formEncode({ a: 'x y&z', b: { c: [{ d: 1 }, { d: true }] }, e: undefined, f: "it's (ok)*!" })).toBe(
      'a=x%20y%26z&b[c][0][d]=1&b[c][1][d]=true&f=it%27s%20%28ok%29%2A%21',
    );
  });
});
