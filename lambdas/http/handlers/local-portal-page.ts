import { billingEntry } from '../billing-entry.js';
import { localPaymentProvider } from '../../adapters/payments/local-payment-provider.js';
import type { Services } from '../../domain/ports/services.js';
import { ApiError } from '../../domain/kernel/errors.js';
import { httpHandler, type HttpHandler } from '../handler.js';
import { escapeHtml, htmlPage } from '../html.js';

/** `GET /local/portal/{session}`: the local stand-in for the provider's billing portal. */
export function localPortalPageHandler(services: Services): HttpHandler {
  return httpHandler(services, async (request) => {
    const portal = localPaymentProvider(services).portal(request.pathParameters.session ?? '');
    if (!portal) throw new ApiError('resource_not_found', 'session', 'No such portal session, or it expired.');
    const org = await services.accounts.getOrganization(portal.orgId);
    return htmlPage(
      'Local billing portal',
      `<h1>Local billing portal</h1>
<p>Organisation <code>${escapeHtml(portal.orgId)}</code>, customer <code>${escapeHtml(portal.customerId)}</code>, plan <strong>${escapeHtml(org?.plan ?? 'unknown')}</strong>.</p>
<p class="note">Payment methods, invoices and subscriptions are managed in the provider's portal on AWS; locally there is nothing to manage.</p>
<p><a href="${escapeHtml(portal.returnUrl)}">Return</a></p>`,
    );
  });
}

export const handler = billingEntry((container) => localPortalPageHandler(container));
