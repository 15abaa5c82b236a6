import { presentLedgerEntry } from '../../domain/money/ledger-view.js';
import { implementJwt } from '../implement-jwt.js';
import { listLedger } from '../routes/management.js';

/** `GET /mgmt/v1/ledger`: append-only, newest first. */
export const handler = implementJwt(listLedger, async ({ services, member, query }) => {
  const page = await services.accounts.listLedger({
    orgId: member.orgId,
    limit: query.limit,
    ...(query.livemode === undefined ? {} : { livemode: query.livemode }),
    ...(query.starting_after ? { startingAfter: query.starting_after } : {}),
    ...(query.endpoint ? { jobEndpoint: query.endpoint } : {}),
  });
  return { status: 200, body: { object: 'list' as const, data: page.items.map(presentLedgerEntry), has_more: page.hasMore } };
});
