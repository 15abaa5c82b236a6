import { ApiError } from '../../domain/kernel/errors.js';
import { SIGNATURE_TOLERANCE_SECONDS, verifySignatureHeader } from '../../domain/kernel/signatures.js';
import type { BillingEvent } from '../../domain/ports/money.js';

export const SIGNATURE_HEADER = 'stripe-signature';

/**
 * The fields of a Stripe event read here: an event object as Stripe sends it (and as the SDK's
 * `Stripe.Event` types it) satisfies this. The `data.object` is read field by field below.
 */
export interface StripeEvent {
  id: string;
  type: string;
  data: { object: unknown };
}

type Fields = Record<string, unknown>;

function fields(value: unknown): Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Fields) : {};
}

function textOf(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/**
 * Verifies a Stripe-signed body as Stripe documents it (webhooks, "verify manually"): the
 * `Stripe-Signature` header is `t=<unix>,v1=<hex>[,v1=<hex>…]`; any `v1` must equal
 * HMAC-SHA256(secret, "<t>.<raw body bytes>") under a constant-time comparison, and `t` must lie
 * within five minutes of now. Several `v1` appear while Stripe rolls the endpoint's secret;
 * `v0` (test mode's legacy scheme) is ignored. Any failure is `401 invalid_signature`.
 */
export async function parseStripeSignedEvent(
  rawBody: Buffer,
  headers: Record<string, string>,
  webhookSecret: string,
  nowMs: number,
): Promise<BillingEvent> {
  const header = headers[SIGNATURE_HEADER];
  if (!header) throw new ApiError('invalid_signature', 'Stripe-Signature', 'The Stripe-Signature header is missing.');
  if (
    verifySignatureHeader(header, rawBody, webhookSecret, Math.floor(nowMs / 1000), SIGNATURE_TOLERANCE_SECONDS) !==
    null
  ) {
    throw new ApiError(
      'invalid_signature',
      'Stripe-Signature',
      'The Stripe-Signature does not match the body, or is too old.',
    );
  }
  let event: Fields;
  try {
    event = fields(JSON.parse(rawBody.toString('utf8')));
  } catch {
    event = {};
  }
  const id = textOf(event.id);
  const type = textOf(event.type);
  // signed by Stripe yet not an event: refused as the SDK's constructEvent refused it, never half-applied
  if (!id || !type)
    throw new ApiError('invalid_signature', 'Stripe-Signature', 'The signed body is not a Stripe event.');
  return toBillingEvent({ id, type, data: { object: fields(event.data).object } });
}

/** A customer field is its id, or the customer object when the event expanded it. */
function idOf(value: unknown): string | null {
  return textOf(value) ?? textOf(fields(value).id);
}

/**
 * Only what moves money or plans matters: a paid checkout (top-up or a subscription's first
 * period), a paid renewal invoice, a subscription that ended. The organisation and the price
 * come from metadata we set when opening the checkout; the amount paid is never read.
 */
export function toBillingEvent(event: StripeEvent): BillingEvent {
  const ignored: BillingEvent = { kind: 'ignored', eventId: event.id, type: event.type };
  const object = fields(event.data.object);
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded': {
      // a delayed payment method completes the session unpaid; its async_payment_succeeded event grants the credits
      if (object.payment_status !== 'paid') return ignored;
      const metadata = fields(object.metadata);
      const orgId = textOf(metadata.org_id) ?? textOf(object.client_reference_id);
      const priceId = textOf(metadata.price);
      if (!orgId || !priceId) return ignored;
      return { kind: 'payment_succeeded', eventId: event.id, orgId, priceId, customerId: idOf(object.customer) };
    }
    case 'invoice.paid': {
      // the first invoice of a subscription is granted by its checkout session
      if (object.billing_reason !== 'subscription_cycle') return ignored;
      const metadata = fields(fields(fields(object.parent).subscription_details).metadata);
      const orgId = textOf(metadata.org_id);
      const priceId = textOf(metadata.price);
      if (!orgId || !priceId) return ignored;
      return { kind: 'payment_succeeded', eventId: event.id, orgId, priceId, customerId: idOf(object.customer) };
    }
    case 'customer.subscription.deleted': {
      const orgId = textOf(fields(object.metadata).org_id);
      return orgId ? { kind: 'subscription_ended', eventId: event.id, orgId } : ignored;
    }
    default:
      return ignored;
  }
}
