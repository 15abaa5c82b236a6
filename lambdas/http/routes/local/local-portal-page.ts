import { localPaymentProvider } from '../../../adapters/payments/local-payment-provider.js';
import { ApiError } from '../../../domain/kernel/errors.js';
import { escapeHtml, htmlPage } from '../../html.js';
import { implement } from '../../implement.js';
import { HTML_PAGE, localPage } from './local-page.js';

export const route = localPage({
  module: import.meta.url,
  id: 'local-portal-page',
  method: 'GET',
  path: '/local/portal/{session}',
  summary: 'Local runtime only: the stand-in billing portal',
  responses: { 200: HTML_PAGE },
  access: { table: 'read' },
});

/** `GET /local/portal/{session}`: the local stand-in for the provider's billing portal. */
export const handler = implement(
  route,
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
  { extend: async () => (await import('../../../composition/payment-provider.js')).withPaymentProvider },
);
