import { dashboardEntry } from '../dashboard-entry.js';
import type { Services } from '../../domain/ports/services.js';
import { presentLedgerEntry } from '../../domain/money/ledger-view.js';
import { LedgerQuerySchema } from '../../schemas/management.js';
import { dashboardRoute } from '../dashboard-route.js';
import type { HttpHandler } from '../handler.js';
import { singleValuedQuery } from '../query.js';
import { json } from '../response.js';
import { minimumRoleOf } from '../routes-management.js';
import { validateParams } from '../validation.js';

/** `GET /mgmt/v1/ledger`: append-only, newest first. */
export function listLedgerHandler(services: Services): HttpHandler {
  return dashboardRoute(services, { minimumRole: minimumRoleOf('list-ledger') }, async (request, member) => {
    const query = validateParams(LedgerQuerySchema, singleValuedQuery(request));
    const page = await services.accounts.listLedger({
      orgId: member.orgId,
      limit: query.limit,
      ...(query.livemode === undefined ? {} : { livemode: query.livemode }),
      ...(query.starting_after ? { startingAfter: query.starting_after } : {}),
    });
    return json(200, { object: 'list', data: page.items.map(presentLedgerEntry), has_more: page.hasMore });
  });
}

export const handler = dashboardEntry((container) => listLedgerHandler(container));
