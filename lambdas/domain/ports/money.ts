import type { EndpointSlug } from '../catalogue/catalogue.js';
import type { PriceDefinition } from '../money/billing-prices.js';
import type { UsageRow } from '../money/usage.js';
import type { Organization } from './access.js';

export interface ProviderSession {
  id: string;
  url: string;
  expiresAt: number;
}

/**
 * What a verified provider event means here. Adapters verify the signature (Stripe's
 * scheme: HMAC-SHA256 over `t.` and the raw body, 300 s tolerance) and translate; nothing reaches the domain unverified.
 */
export type BillingEvent =
  /** a top-up, a subscription's first payment or a renewal was paid: grant the price's credits */
  | { kind: 'payment_succeeded'; eventId: string; orgId: string; priceId: string; customerId: string | null }
  | { kind: 'subscription_ended'; eventId: string; orgId: string }
  | { kind: 'ignored'; eventId: string; type: string };

/** The payment provider: Stripe on AWS, a local stand-in that signs like Stripe in the local runtime. */
export interface PaymentProvider {
  /** namespaces event ids for exactly-once application */
  readonly name: string;
  createCheckoutSession(request: {
    org: Organization;
    price: PriceDefinition;
    successUrl: string;
    cancelUrl: string;
  }): Promise<ProviderSession>;
  /** creates the provider-side customer when the organisation has none yet */
  createPortalSession(request: {
    org: Organization;
    returnUrl: string;
  }): Promise<ProviderSession & { customerId: string }>;
  /** verifies the provider's signature over the raw body; `401 invalid_signature` when it does not hold */
  parseEvent(rawBody: Buffer, headers: Record<string, string>): Promise<BillingEvent>;
}

export interface UsageQuery {
  orgId: string;
  /** inclusive, `YYYY-MM-DD` */
  from: string;
  to: string;
  endpoint?: EndpointSlug;
  livemode?: boolean;
}

/** Rows are written only by the `bumpUsage` op inside each settlement transaction. */
export interface UsageStore {
  list(query: UsageQuery): Promise<UsageRow[]>;
}
