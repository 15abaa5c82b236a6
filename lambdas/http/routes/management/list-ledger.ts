import { presentPage } from '../../../domain/kernel/page.js';
import { presentLedgerEntry } from '../../../domain/money/ledger.js';
import { LedgerListSchema, LedgerQuerySchema } from '../../../schemas/management.js';
import { implementJwt } from '../../implement-jwt.js';
import { managementRoute } from '../define.js';

export const route = managementRoute({
  module: import.meta.url,
  id: 'list-ledger',
  method: 'GET',
  path: '/mgmt/v1/ledger',
  minimumRole: 'member',
  summary: 'Credit ledger entries, newest first; a balance is the sum of its mode’s entries',
  query: LedgerQuerySchema,
  responses: { 200: { description: 'a page of ledger entries', schema: LedgerListSchema } },
  errors: [],
  access: { table: 'read' },
});

/** `GET /mgmt/v1/ledger`: append-only, newest first. */
export const handler = implementJwt(route, async ({ services, member, query }) => {
  const page = await services.accounts.listLedger({
    orgId: member.orgId,
    limit: query.limit,
    ...(query.livemode === undefined ? {} : { livemode: query.livemode }),
    ...(query.starting_after ? { startingAfter: query.starting_after } : {}),
    ...(query.endpoint ? { jobEndpoint: query.endpoint } : {}),
  });
  return {
    status: 200,
    body: await presentPage(page, presentLedgerEntry),
  };
});
