import { randomBytes, timingSafeEqual } from 'node:crypto';
import { type Clock, epochSeconds } from '../../domain/kernel/clock.js';
import { ApiError } from '../../domain/kernel/errors.js';
import { derivedBase58 } from '../../domain/kernel/ids.js';
import { hmacSha256, signatureHeader } from '../../domain/kernel/signatures.js';
import { type PriceDefinition, priceById } from '../../domain/money/billing-prices.js';
import type { Organization } from '../../domain/ports/access.js';
import type { BillingEvent, PaymentProvider, ProviderSession } from '../../domain/ports/money.js';
import type { Services } from '../../domain/ports/services.js';
import { PORTAL_SESSION_SECONDS } from './stripe-payment-provider.js';
import { parseStripeSignedEvent } from './stripe-webhooks.js';

/** Stripe's default checkout lifetime */
const CHECKOUT_SESSION_SECONDS = 24 * 3600;
export const LOCAL_EVENTS_PATH = '/internal/v1/billing/events';

export interface LocalPaymentOptions {
  /** where the local pages and the events route are served */
  baseUrl: string;
  /** `whsec_…`: signs sessions and events; the events route verifies them as it verifies Stripe's */
  webhookSecret: string;
  clock: Clock;
}

export interface LocalCheckout {
  id: string;
  orgId: string;
  price: PriceDefinition;
  successUrl: string;
  cancelUrl: string;
  expiresAt: number;
}

export interface LocalPortal {
  orgId: string;
  customerId: string;
  returnUrl: string;
  expiresAt: number;
}

/**
 * The payment provider of the local runtime. It keeps no state: a session id is its own
 * signed description, so any process holding the secret can serve the page and the payment.
 * Paying sends a `checkout.session.completed` event signed exactly like Stripe signs, to the
 * same events route Stripe calls, where the Stripe adapter's verification checks it.
 */
export class LocalPaymentProvider implements PaymentProvider {
  readonly name = 'local';

  constructor(private readonly options: LocalPaymentOptions) {}

  private sign(body: string): string {
    return hmacSha256(this.options.webhookSecret, body).toString('hex').slice(0, 32);
  }

  private seal(prefix: string, claims: Record<string, unknown>): string {
    const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
    return `${prefix}${body}.${this.sign(body)}`;
  }

  private unseal(prefix: string, id: string): Record<string, unknown> | null {
    if (!id.startsWith(prefix)) return null;
    const [body, signature] = id.slice(prefix.length).split('.');
    if (!body || !signature) return null;
    const expected = Buffer.from(this.sign(body));
    if (expected.length !== signature.length || !timingSafeEqual(expected, Buffer.from(signature))) return null;
    try {
      return JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Record<string, unknown>;
    } catch {
      return null;
    }
  }

  private customerOf(orgId: string): string {
    return `cus_local${derivedBase58(orgId, 14)}`;
  }

  async createCheckoutSession(request: {
    org: Organization;
    price: PriceDefinition;
    successUrl: string;
    cancelUrl: string;
  }): Promise<ProviderSession> {
    const expiresAt = epochSeconds(this.options.clock) + CHECKOUT_SESSION_SECONDS;
    const id = this.seal('cs_local_', {
      o: request.org.id,
      p: request.price.id,
      s: request.successUrl,
      c: request.cancelUrl,
      e: expiresAt,
      n: randomBytes(6).toString('hex'),
    });
    return { id, url: `${this.options.baseUrl}/local/checkout/${id}`, expiresAt };
  }

  async createPortalSession(request: {
    org: Organization;
    returnUrl: string;
  }): Promise<ProviderSession & { customerId: string }> {
    const customerId = request.org.billing_customer_id ?? this.customerOf(request.org.id);
    const expiresAt = epochSeconds(this.options.clock) + PORTAL_SESSION_SECONDS;
    const id = this.seal('bps_local_', { o: request.org.id, u: customerId, r: request.returnUrl, e: expiresAt });
    return { id, url: `${this.options.baseUrl}/local/portal/${id}`, expiresAt, customerId };
  }

  parseEvent(rawBody: Buffer, headers: Record<string, string>): Promise<BillingEvent> {
    return parseStripeSignedEvent(rawBody, headers, this.options.webhookSecret, this.options.clock.nowMs());
  }

  /** null when the id is not one of ours, was tampered with, or expired */
  checkout(id: string): LocalCheckout | null {
    const claims = this.unseal('cs_local_', id);
    const price = priceById(claims?.p as string | undefined);
    if (!claims || !price || Number(claims.e) <= epochSeconds(this.options.clock)) return null;
    return {
      id,
      orgId: String(claims.o),
      price,
      successUrl: String(claims.s),
      cancelUrl: String(claims.c),
      expiresAt: Number(claims.e),
    };
  }

  portal(id: string): LocalPortal | null {
    const claims = this.unseal('bps_local_', id);
    if (!claims || Number(claims.e) <= epochSeconds(this.options.clock)) return null;
    return {
      orgId: String(claims.o),
      customerId: String(claims.u),
      returnUrl: String(claims.r),
      expiresAt: Number(claims.e),
    };
  }

  /** The Stripe-shaped event paying this session sends; its id is derived from the session, so paying twice is one event. */
  checkoutCompletedEvent(checkout: LocalCheckout): { id: string; payload: string } {
    const id = `evt_${derivedBase58(checkout.id, 24)}`;
    const metadata = { org_id: checkout.orgId, price: checkout.price.id };
    const event = {
      id,
      object: 'event',
      api_version: '2026-01-28.clover',
      created: epochSeconds(this.options.clock),
      livemode: false,
      type: 'checkout.session.completed',
      data: {
        object: {
          id: checkout.id,
          object: 'checkout.session',
          mode: checkout.price.kind === 'subscription' ? 'subscription' : 'payment',
          status: 'complete',
          payment_status: 'paid',
          client_reference_id: checkout.orgId,
          customer: this.customerOf(checkout.orgId),
          metadata,
          amount_total: checkout.price.unitAmount,
          currency: 'usd',
        },
      },
    };
    return { id, payload: JSON.stringify(event) };
  }

  /** The `Stripe-Signature` header for a body, dated now: exactly what Stripe would send. */
  signatureFor(payload: string): string {
    return signatureHeader(payload, this.options.webhookSecret, epochSeconds(this.options.clock));
  }

  /** What the page's "pay" button does: POST the signed event to the events route, like Stripe would. */
  async pay(checkout: LocalCheckout): Promise<{ status: number; body: unknown }> {
    const { payload } = this.checkoutCompletedEvent(checkout);
    const response = await fetch(`${this.options.baseUrl}${LOCAL_EVENTS_PATH}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Stripe-Signature': this.signatureFor(payload) },
      body: payload,
    });
    return { status: response.status, body: await response.json().catch(() => null) };
  }
}

/** The local pages exist only where the local provider is the configured one. */
export function localPaymentProvider(services: Services): LocalPaymentProvider {
  if (!(services.payments instanceof LocalPaymentProvider)) throw new ApiError('route_not_found');
  return services.payments;
}
