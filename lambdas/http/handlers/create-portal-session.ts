import { billingEntry } from '../billing-entry.js';
import { openPortal } from '../../domain/money/billing.js';
import type { Services } from '../../domain/ports/services.js';
import { PortalRequestSchema } from '../../schemas/management.js';
import { dashboardRoute } from '../dashboard-route.js';
import type { HttpHandler } from '../handler.js';
import { parseJsonBody } from '../json-body.js';
import { json } from '../response.js';
import { minimumRoleOf } from '../routes-management.js';

/** `POST /mgmt/v1/billing/portal` */
export function createPortalSessionHandler(services: Services): HttpHandler {
  return dashboardRoute(services, { minimumRole: minimumRoleOf('create-portal-session') }, async (request, member) => {
    const body = parseJsonBody(request, PortalRequestSchema);
    return json(200, await openPortal(services, member, body.return_url));
  });
}

export const handler = billingEntry((container) => createPortalSessionHandler(container));
