import { localPaymentProvider } from '../../../adapters/payments/local-payment-provider.js';
import { ApiError } from '../../../domain/kernel/errors.js';
import { escapeHtml, htmlPage } from '../../html.js';
import { implement } from '../../implement.js';
import { localPage } from './local-page.js';

export const route = localPage({
  module: import.meta.url,
  id: 'local-checkout-pay',
  method: 'POST',
  path: '/local/checkout/{session}/pay',
  summary: 'Local runtime only: the pay button; sends the signed provider event to /internal/v1/billing/events',
  responses: {
    200: { description: 'an HTML_PAGE page with the outcome', contentType: 'text/html' },
    502: { description: 'the events route refused the event', contentType: 'text/html' },
  },
  access: { table: 'none' },
});

/** `POST /local/checkout/{session}/pay`: sends the session's signed provider event to the events route and shows what it answered. */
export const handler = implement(
  route,
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
  { extend: async () => (await import('../../../composition/payment-provider.js')).withPaymentProvider },
);
