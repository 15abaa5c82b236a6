import { localPaymentProvider } from '../../../adapters/payments/local-payment-provider.js';
import { ApiError } from '../../../domain/kernel/errors.js';
import { escapeHtml, htmlPage } from '../../html.js';
import { implement } from '../../implement.js';
import { HTML_PAGE, localPage } from './local-page.js';

function dollars(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}

export const route = localPage({
  module: import.meta.url,
  id: 'local-checkout-page',
  method: 'GET',
  path: '/local/checkout/{session}',
  summary: 'Local runtime only: the stand-in payment page of a checkout session',
  responses: { 200: HTML_PAGE },
  access: { table: 'none' },
});

/** `GET /local/checkout/{session}`: the local provider's payment page; its button pays for real (locally). */
export const handler = implement(
  route,
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
  { extend: async () => (await import('../../../composition/payment-provider.js')).withPaymentProvider },
);
