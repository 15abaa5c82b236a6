import { withPaymentProvider } from '../../composition/payment-provider.js';
import { localPaymentProvider } from '../../adapters/payments/local-payment-provider.js';
import { ApiError } from '../../domain/kernel/errors.js';
import { escapeHtml, htmlPage } from '../html.js';
import { implement } from '../implement.js';
import { localCheckoutPay } from '../routes/local.js';

/** `POST /local/checkout/{session}/pay`: sends the session's signed provider event to the events route and shows what it answered. */
export const handler = implement(
  localCheckoutPay,
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
