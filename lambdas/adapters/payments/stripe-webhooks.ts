import type Stripe from 'stripe';
import type { BillingEvent } from '../../domain/ports/payments.js';
import { ApiError } from '../../domain/kernel/errors.js';
import { SIGNATURE_TOLERANCE_SECONDS, signatureHeader } from '../../domain/kernel/signatures.js';

export const SIGNATURE_HEADER = 'stripe-signature';

/** Loaded on first use, so routes that never touch billing do not pay for the SDK at cold start. */
let sdk: Promise<typeof Stripe> | undefined;
export function loadStripe(): Promise<typeof Stripe> {
  sdk ??= import('stripe').then((module) => module.default);
  return sdk;
}

/**
 * Verifies a Stripe-signed body with Stripe's own helper (`webhooks.constructEvent` over the
 * raw bytes) and translates the event. Any signature problem is `401 invalid_signature`.
 */
export async function parseStripeSignedEvent(rawBody: Buffer, headers: Record<string, string>, webhookSecret: string, nowMs: number): Promise<BillingEvent> {
  const header = headers[SIGNATURE_HEADER];
  if (!header) throw new ApiError('invalid_signature', 'Stripe-Signature', 'The Stripe-Signature header is missing.');
  const StripeSdk = await loadStripe();
  let event: Stripe.Event;
  try {
    event = StripeSdk.webhooks.constructEvent(rawBody, header, webhookSecret, SIGNATURE_TOLERANCE_SECONDS, undefined, nowMs);
  } catch {
    throw new ApiError('invalid_signature', 'Stripe-Signature', 'The Stripe-Signature does not match the body, or is too old.');
  }
  return toBillingEvent(event);
}

/** The signing side of the same scheme (`t=<unix>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`), for the local provider. */
export function stripeSignatureHeader(payload: string, secret: string, timestampSeconds: number): string {
  return signatureHeader(payload, secret, timestampSeconds);
}

function idOf(value: string | { id: string } | null | undefined): string | null {
  if (!value) return null;
  return typeof value === 'string' ? value : value.id;
}

/**
 * Only what moves money or plans matters: a paid checkout (top-up or a subscription's first
 * period), a paid renewal invoice, a subscription that ended. The organisation and the price
 * come from metadata we set when opening the checkout; the amount paid is never read.
 */
export function toBillingEvent(event: Stripe.Event): BillingEvent {
  const ignored: BillingEvent = { kind: 'ignored', eventId: event.id, type: event.type };
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded': {
      const session = event.data.object;
      // a delayed payment method completes the session unpaid; its async_payment_succeeded event grants the credits
      if (session.payment_status !== 'paid') return ignored;
      const orgId = session.metadata?.org_id ?? session.client_reference_id;
      const priceId = session.metadata?.price;
      if (!orgId || !priceId) return ignored;
      return { kind: 'payment_succeeded', eventId: event.id, orgId, priceId, customerId: idOf(session.customer) };
    }
    case 'invoice.paid': {
      const invoice = event.data.object;
      // the first invoice of a subscription is granted by its checkout session
      if (invoice.billing_reason !== 'subscription_cycle') return ignored;
      const metadata = invoice.parent?.subscription_details?.metadata ?? {};
      if (!metadata.org_id || !metadata.price) return ignored;
      return { kind: 'payment_succeeded', eventId: event.id, orgId: metadata.org_id, priceId: metadata.price, customerId: idOf(invoice.customer) };
    }
    case 'customer.subscription.deleted': {
      const orgId = event.data.object.metadata?.org_id;
      return orgId ? { kind: 'subscription_ended', eventId: event.id, orgId } : ignored;
    }
    default:
      return ignored;
  }
}
