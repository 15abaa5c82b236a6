import type Stripe from 'stripe';
import type { BillingEvent, PaymentProvider, ProviderSession } from '../../domain/ports/payments.js';
import type { PriceDefinition } from '../../domain/money/billing-prices.js';
import type { Clock } from '../../domain/kernel/clock.js';
import { ApiError } from '../../domain/kernel/errors.js';
import type { Organization } from '../../domain/ports/stores.js';
import { loadStripe, parseStripeSignedEvent } from './stripe-webhooks.js';

/** Stripe does not return a portal session's expiry; its links are short-lived, so we state five minutes. */
export const PORTAL_SESSION_SECONDS = 300;

export interface StripeOptions {
  secretKey: string;
  webhookSecret: string;
  clock: Clock;
}

/** The payment provider on AWS, through the official SDK. Prices are found by lookup key = our price id. */
export class StripePaymentProvider implements PaymentProvider {
  readonly name = 'stripe';
  private client: Promise<Stripe> | undefined;
  private readonly priceIds = new Map<string, string>();

  constructor(private readonly options: StripeOptions) {}

  private stripe(): Promise<Stripe> {
    this.client ??= loadStripe().then((StripeSdk) => new StripeSdk(this.options.secretKey, { maxNetworkRetries: 2, timeout: 10_000 }));
    return this.client;
  }

  /** Provider failures are ours to report as 503, never as the caller's fault, and never with Stripe's message. */
  private async call<T>(work: (stripe: Stripe) => Promise<T>): Promise<T> {
    const stripe = await this.stripe();
    try {
      return await work(stripe);
    } catch (error) {
      if (error instanceof ApiError) throw error;
      throw new ApiError('service_unavailable', null, 'The payment provider could not be reached; retry shortly.');
    }
  }

  private async stripePriceId(stripe: Stripe, price: PriceDefinition): Promise<string> {
    const cached = this.priceIds.get(price.id);
    if (cached) return cached;
    const found = await stripe.prices.list({ lookup_keys: [price.id], active: true, limit: 1 });
    const id = found.data[0]?.id;
    if (!id) throw new Error(`no active Stripe price has lookup_key ${price.id}`);
    this.priceIds.set(price.id, id);
    return id;
  }

  createCheckoutSession(request: { org: Organization; price: PriceDefinition; successUrl: string; cancelUrl: string }): Promise<ProviderSession> {
    return this.call(async (stripe) => {
      const { org, price } = request;
      const metadata = { org_id: org.id, price: price.id };
      const subscription = price.kind === 'subscription';
      const session = await stripe.checkout.sessions.create({
        mode: subscription ? 'subscription' : 'payment',
        line_items: [{ price: await this.stripePriceId(stripe, price), quantity: 1 }],
        client_reference_id: org.id,
        metadata,
        success_url: request.successUrl,
        cancel_url: request.cancelUrl,
        ...(org.billing_customer_id ? { customer: org.billing_customer_id } : subscription ? {} : { customer_creation: 'always' as const }),
        ...(subscription ? { subscription_data: { metadata } } : { payment_intent_data: { metadata } }),
      });
      if (!session.url) throw new Error('Stripe returned a checkout session without a URL');
      return { id: session.id, url: session.url, expiresAt: session.expires_at };
    });
  }

  createPortalSession(request: { org: Organization; returnUrl: string }): Promise<ProviderSession & { customerId: string }> {
    return this.call(async (stripe) => {
      const customerId = request.org.billing_customer_id ?? (await stripe.customers.create({ name: request.org.name, metadata: { org_id: request.org.id } })).id;
      const session = await stripe.billingPortal.sessions.create({ customer: customerId, return_url: request.returnUrl });
      return { id: session.id, url: session.url, expiresAt: session.created + PORTAL_SESSION_SECONDS, customerId };
    });
  }

  parseEvent(rawBody: Buffer, headers: Record<string, string>): Promise<BillingEvent> {
    return parseStripeSignedEvent(rawBody, headers, this.options.webhookSecret, this.options.clock.nowMs());
  }
}
