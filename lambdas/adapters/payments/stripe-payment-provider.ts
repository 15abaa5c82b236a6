import type { Clock } from '../../domain/kernel/clock.js';
import { ApiError } from '../../domain/kernel/errors.js';
import type { PriceDefinition } from '../../domain/money/billing-prices.js';
import type { Organization } from '../../domain/ports/access.js';
import type { BillingEvent, PaymentProvider, ProviderSession } from '../../domain/ports/money.js';
import { StripeRest } from './stripe-rest.js';
import { parseStripeSignedEvent } from './stripe-webhooks.js';

/** Stripe does not return a portal session's expiry; its links are short-lived, so we state five minutes. */
export const PORTAL_SESSION_SECONDS = 300;

export interface StripeOptions {
  secretKey: string;
  webhookSecret: string;
  clock: Clock;
  /** `https://api.stripe.com` unless a test serves the API locally */
  apiBaseUrl?: string;
  /** the first retry's back-off (the SDK's 500 ms unless a test shortens it) */
  initialRetryDelayMs?: number;
}

/** The fields read from Stripe's answers; everything else in them is ignored. */
interface StripeList<T> {
  data: T[];
}
interface StripePrice {
  id: string;
}
interface StripeCustomer {
  id: string;
}
interface StripeCheckoutSession {
  id: string;
  url: string | null;
  expires_at: number;
}
interface StripePortalSession {
  id: string;
  url: string;
  created: number;
}

function text(value: unknown, what: string): string {
  if (typeof value !== 'string' || value === '') throw new Error(`Stripe returned ${what} without a string`);
  return value;
}

function seconds(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new Error(`Stripe returned ${what} without a number`);
  return value;
}

/** The payment provider on AWS, over Stripe's REST API. Prices are found by lookup key = our price id. */
export class StripePaymentProvider implements PaymentProvider {
  readonly name = 'stripe';
  private readonly stripe: StripeRest;
  private readonly priceIds = new Map<string, string>();

  constructor(private readonly options: StripeOptions) {
    this.stripe = new StripeRest({
      secretKey: options.secretKey,
      baseUrl: options.apiBaseUrl,
      initialRetryDelayMs: options.initialRetryDelayMs,
      maxNetworkRetries: 2,
      timeoutMs: 10_000,
    });
  }

  /** Provider failures are ours to report as 503, never as the caller's fault, and never with Stripe's message. */
  private async call<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof ApiError) throw error;
      throw new ApiError('service_unavailable', null, 'The payment provider could not be reached; retry shortly.');
    }
  }

  private async stripePriceId(price: PriceDefinition): Promise<string> {
    const cached = this.priceIds.get(price.id);
    if (cached) return cached;
    const found = await this.stripe.get<StripeList<StripePrice>>('/v1/prices', {
      lookup_keys: [price.id],
      active: true,
      limit: 1,
    });
    const id = found.data?.[0]?.id;
    if (!id) throw new Error(`no active Stripe price has lookup_key ${price.id}`);
    this.priceIds.set(price.id, id);
    return id;
  }

  createCheckoutSession(request: {
    org: Organization;
    price: PriceDefinition;
    successUrl: string;
    cancelUrl: string;
  }): Promise<ProviderSession> {
    return this.call(async () => {
      const { org, price } = request;
      const metadata = { org_id: org.id, price: price.id };
      const subscription = price.kind === 'subscription';
      const session = await this.stripe.post<StripeCheckoutSession>('/v1/checkout/sessions', {
        mode: subscription ? 'subscription' : 'payment',
        line_items: [{ price: await this.stripePriceId(price), quantity: 1 }],
        client_reference_id: org.id,
        metadata,
        success_url: request.successUrl,
        cancel_url: request.cancelUrl,
        ...(org.billing_customer_id
          ? { customer: org.billing_customer_id }
          : subscription
            ? {}
            : { customer_creation: 'always' }),
        ...(subscription ? { subscription_data: { metadata } } : { payment_intent_data: { metadata } }),
      });
      return {
        id: text(session.id, 'a checkout session'),
        url: text(session.url, 'a checkout session URL'),
        expiresAt: seconds(session.expires_at, 'a checkout session expiry'),
      };
    });
  }

  createPortalSession(request: {
    org: Organization;
    returnUrl: string;
  }): Promise<ProviderSession & { customerId: string }> {
    return this.call(async () => {
      const customerId =
        request.org.billing_customer_id ??
        text(
          (
            await this.stripe.post<StripeCustomer>('/v1/customers', {
              name: request.org.name,
              metadata: { org_id: request.org.id },
            })
          ).id,
          'a customer',
        );
      const session = await this.stripe.post<StripePortalSession>('/v1/billing_portal/sessions', {
        customer: customerId,
        return_url: request.returnUrl,
      });
      return {
        id: text(session.id, 'a portal session'),
        url: text(session.url, 'a portal session URL'),
        expiresAt: seconds(session.created, 'a portal session date') + PORTAL_SESSION_SECONDS,
        customerId,
      };
    });
  }

  parseEvent(rawBody: Buffer, headers: Record<string, string>): Promise<BillingEvent> {
    return parseStripeSignedEvent(rawBody, headers, this.options.webhookSecret, this.options.clock.nowMs());
  }
}
