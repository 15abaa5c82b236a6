import { localPaymentProvider } from '../../adapters/payments/local-payment-provider.js';
import { withPaymentProvider } from '../../composition/payment-provider.js';
import { ApiError } from '../../domain/kernel/errors.js';
import { escapeHtml, htmlPage } from '../html.js';
import { implement } from '../implement.js';
import * as local from '../routes/local.js';

// The local payment provider's pages (the local runtime, and AWS only with `local_payments`).

function dollars(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}

/** `GET /local/checkout/{session}`: the local provider's payment page; its button pays for real (locally). */
export const localCheckoutPage = implement(
  local.localCheckoutPage,
  async ({ services, params }) => {
    const provider = localPaymentProvider(services);
    const checkout = provider.checkout(params.session);
    if (!checkout) throw new ApiError('resource_not_found', 'session', 'No such checkout session, or it expired.');
    const { price } = checkout;
    const what =
      price.kind === 'subscription'
        ? `${escapeHtml(price.name)}: ${dollars(price.unitAmount)} per ${price.interval}`
        : `${escapeHtml(price.name)} for ${dollars(price.unitAmount)}`;
    return htmlPage(
      'Local checkout',
      `<h1>Local checkout</h1>
<p>Organisation <code>${escapeHtml(checkout.orgId)}</code> buys ${what}.</p>
<p>${price.credits.toLocaleString('en-US')} credits go to the <strong>live</strong> balance once the payment event arrives.</p>
<form method="post" action="/local/checkout/${encodeURIComponent(checkout.id)}/pay"><button type="submit">Pay ${dollars(price.unitAmount)}</button></form>
<p><a href="${escapeHtml(checkout.cancelUrl)}">Cancel</a></p>
<p class="note">No money moves: this is the local stand-in for the payment provider. Paying sends a Stripe-signed <code>checkout.session.completed</code> event to <code>/internal/v1/billing/events</code>.</p>`,
    );
  },
  { extend: withPaymentProvider },
);

/** `POST /local/checkout/{session}/pay`: sends the session's signed provider event to the events route and shows what it answered. */
export const localCheckoutPay = implement(
  local.localCheckoutPay,
  async ({ services, params }) => {
    const provider = localPaymentProvider(services);
    const checkout = provider.checkout(params.session);
    if (!checkout) throw new ApiError('resource_not_found', 'session', 'No such checkout session, or it expired.');
    const delivery = await provider.pay(checkout);
    const outcome = (delivery.body as { outcome?: string } | null)?.outcome ?? 'failed';
    const message =
      outcome === 'applied'
        ? `Payment received: ${checkout.price.credits.toLocaleString('en-US')} credits were added to the live balance.`
        : outcome === 'duplicate'
          ? 'This session was already paid; nothing more was added.'
          : `The events route answered ${delivery.status}: ${JSON.stringify(delivery.body)}`;
    return htmlPage(
      'Local checkout',
      `<h1>Local checkout</h1><p data-outcome="${escapeHtml(outcome)}">${escapeHtml(message)}</p><p><a href="${escapeHtml(checkout.successUrl)}">Continue</a></p>`,
      delivery.status === 200 ? 200 : 502,
    );
  },
  { extend: withPaymentProvider },
);

/** `GET /local/portal/{session}`: the local stand-in for the provider's billing portal. */
export const localPortalPage = implement(
  local.localPortalPage,
  async ({ services, params }) => {
    const portal = localPaymentProvider(services).portal(params.session);
    if (!portal) throw new ApiError('resource_not_found', 'session', 'No such portal session, or it expired.');
    const org = await services.accounts.getOrganization(portal.orgId);
    return htmlPage(
      'Local billing portal',
      `<h1>Local billing portal</h1>
<p>Organisation <code>${escapeHtml(portal.orgId)}</code>, customer <code>${escapeHtml(portal.customerId)}</code>, plan <strong>${escapeHtml(org?.plan ?? 'unknown')}</strong>.</p>
<p class="note">Payment methods, invoices and subscriptions are managed in the provider's portal on AWS; locally there is nothing to manage.</p>
<p><a href="${escapeHtml(portal.returnUrl)}">Return</a></p>`,
    );
  },
  { extend: withPaymentProvider },
);
