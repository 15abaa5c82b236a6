import type { Member } from '../access/member.js';
import { organizationNotFound } from '../access/organization-view.js';
import { epochSeconds } from '../kernel/clock.js';
import type { Organization } from '../ports/access.js';
import type { BillingEvent } from '../ports/money.js';
import type { Services } from '../ports/services.js';
import { TransactionRefused, type WriteOp } from '../ports/transactions.js';
import { FALLBACK_PLAN, type PriceId, priceById } from './billing-prices.js';
import { depositCredits } from './credits.js';
import { type PublicLedgerEntry, presentLedgerEntry } from './ledger.js';

export interface CheckoutSessionView {
  object: 'checkout_session';
  id: string;
  url: string;
  expires_at: number;
  price: PriceId;
  mode: 'payment' | 'subscription';
}

async function organizationOf(services: Services, member: Member): Promise<Organization> {
  const org = await services.accounts.getOrganization(member.orgId);
  if (!org) throw organizationNotFound(member.orgId);
  return org;
}

export async function openCheckout(
  services: Services,
  member: Member,
  request: { price: PriceId; successUrl?: string | undefined; cancelUrl?: string | undefined },
): Promise<CheckoutSessionView> {
  const org = await organizationOf(services, member);
  const price = priceById(request.price)!;
  const billingPage = `${services.config.dashboardUrl}/billing`;
  const session = await services.payments.createCheckoutSession({
    org,
    price,
    successUrl: request.successUrl ?? `${billingPage}?checkout=succeeded`,
    cancelUrl: request.cancelUrl ?? `${billingPage}?checkout=canceled`,
  });
  return {
    object: 'checkout_session',
    id: session.id,
    url: session.url,
    expires_at: session.expiresAt,
    price: request.price,
    mode: price.kind === 'subscription' ? 'subscription' : 'payment',
  };
}

export async function openPortal(
  services: Services,
  member: Member,
  returnUrl: string | undefined,
): Promise<{ url: string; expires_at: number }> {
  const org = await organizationOf(services, member);
  const session = await services.payments.createPortalSession({
    org,
    returnUrl: returnUrl ?? `${services.config.dashboardUrl}/billing`,
  });
  if (org.billing_customer_id !== session.customerId)
    await services.uow.commit([
      { kind: 'updateOrganization', orgId: org.id, set: { billing_customer_id: session.customerId } },
    ]);
  return { url: session.url, expires_at: session.expiresAt };
}

/** Free, unlimited, never invoiced: simulated money for the test balance only. */
export async function depositTestCredits(
  services: Services,
  member: Member,
  amount: number,
): Promise<PublicLedgerEntry> {
  await organizationOf(services, member);
  const entry = await depositCredits(services, member.orgId, false, amount, `test_credits:${member.userId}`);
  return presentLedgerEntry(entry);
}

export type BillingOutcome = 'applied' | 'duplicate' | 'ignored';

/**
 * Applies a verified provider event exactly once: the deposit (or plan change) commits in one
 * transaction with a conditional put of the event id, so a replayed or concurrently
 * redelivered event changes nothing.
 */
export async function applyBillingEvent(services: Services, event: BillingEvent): Promise<BillingOutcome> {
  if (event.kind === 'ignored') return 'ignored';
  const claim: WriteOp = {
    kind: 'claimProviderEvent',
    provider: services.payments.name,
    eventId: event.eventId,
    orgId: event.orgId,
    at: epochSeconds(services.clock),
  };
  try {
    if (event.kind === 'subscription_ended') {
      await services.uow.commit([
        claim,
        { kind: 'updateOrganization', orgId: event.orgId, set: { plan: FALLBACK_PLAN } },
      ]);
      return 'applied';
    }
    const price = priceById(event.priceId);
    if (!price) {
      services.log.warn('billing event names an unknown price; nothing granted', {
        event_id: event.eventId,
        price: event.priceId,
      });
      return 'ignored';
    }
    const orgChanges = {
      ...(price.plan ? { plan: price.plan } : {}),
      ...(event.customerId ? { billing_customer_id: event.customerId } : {}),
    };
    const extraOps: WriteOp[] = [
      claim,
      ...(Object.keys(orgChanges).length
        ? [{ kind: 'updateOrganization', orgId: event.orgId, set: orgChanges } as const]
        : []),
    ];
    await depositCredits(
      services,
      event.orgId,
      true,
      price.credits,
      `${services.payments.name}:${event.eventId}`,
      extraOps,
    );
    return 'applied';
  } catch (error) {
    if (error instanceof TransactionRefused && error.refusedOps.includes('claimProviderEvent')) return 'duplicate';
    if (
      error instanceof TransactionRefused &&
      error.refusedOps.some((op) => op === 'moveBalance' || op === 'updateOrganization')
    ) {
      // a signed event for an organisation that does not exist: acknowledge it so the provider stops retrying
      services.log.warn('billing event for an unknown organisation; nothing granted', {
        event_id: event.eventId,
        org_id: event.orgId,
      });
      return 'ignored';
    }
    throw error;
  }
}
