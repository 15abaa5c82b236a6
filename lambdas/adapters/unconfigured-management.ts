import type { BillingEvent, PaymentProvider, ProviderSession } from '../domain/ports/payments.js';
import { ApiError } from '../domain/kernel/errors.js';
import type { Member } from '../domain/access/member.js';
import type { PublishedKeySet, TokenVerifier } from '../domain/ports/tokens.js';

/**
 * The container's defaults until a management entry point (lambdas/http/dashboard-entry.ts,
 * billing-entry.ts) or the local runtime configures the real adapters. Kept free of jose and the
 * Stripe client, so `/v1` and worker bundles carry neither.
 */
export class UnconfiguredTokenVerifier implements TokenVerifier {
  async verify(): Promise<Member> {
    throw new ApiError('service_unavailable', null, 'Dashboard authentication is not configured (JWT_ISSUER, JWT_AUDIENCE).');
  }
  async publishedKeys(): Promise<PublishedKeySet> {
    return { keys: [] };
  }
}

/** Billing answers 503 rather than granting anything. */
export class UnconfiguredPaymentProvider implements PaymentProvider {
  readonly name = 'none';
  private refuse(): never {
    throw new ApiError('service_unavailable', null, 'Billing is not configured (STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET).');
  }
  async createCheckoutSession(): Promise<ProviderSession> {
    return this.refuse();
  }
  async createPortalSession(): Promise<ProviderSession & { customerId: string }> {
    return this.refuse();
  }
  async parseEvent(): Promise<BillingEvent> {
    return this.refuse();
  }
}
