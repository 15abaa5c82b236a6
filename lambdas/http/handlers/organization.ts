import { presentOrganization } from '../../domain/access/organization-view.js';
import { depositTestCredits } from '../../domain/money/billing.js';
import { presentLedgerEntry } from '../../domain/money/ledger.js';
import { usageWindow } from '../../domain/money/usage.js';
import { implementJwt } from '../implement-jwt.js';
import * as management from '../routes/management.js';

// The organisation, its usage, its ledger and its test credits (management surface).

/** `GET /mgmt/v1/organization` */
export const getOrganization = implementJwt(management.getOrganization, async ({ services, member }) => ({
  status: 200,
  body: await presentOrganization(services, member.orgId),
}));

/** `GET /mgmt/v1/usage`: rows kept by the admission and settlement transactions; no job is scanned. */
export const listUsage = implementJwt(management.listUsage, async ({ services, member, query }) => {
  const data = await services.usage.list({
    orgId: member.orgId,
    ...usageWindow(services.clock.nowMs(), query.from, query.to),
    ...(query.endpoint ? { endpoint: query.endpoint } : {}),
    ...(query.livemode === undefined ? {} : { livemode: query.livemode }),
  });
  return { status: 200, body: { object: 'list' as const, data, has_more: false } };
});

/** `GET /mgmt/v1/ledger`: append-only, newest first. */
export const listLedger = implementJwt(management.listLedger, async ({ services, member, query }) => {
  const page = await services.accounts.listLedger({
    orgId: member.orgId,
    limit: query.limit,
    ...(query.livemode === undefined ? {} : { livemode: query.livemode }),
    ...(query.starting_after ? { startingAfter: query.starting_after } : {}),
    ...(query.endpoint ? { jobEndpoint: query.endpoint } : {}),
  });
  return {
    status: 200,
    body: { object: 'list' as const, data: page.items.map(presentLedgerEntry), has_more: page.hasMore },
  };
});

/** `POST /mgmt/v1/billing/test-credits`: the test balance only; free, never invoiced. */
export const createTestCredits = implementJwt(management.createTestCredits, async ({ services, member, body }) => ({
  status: 200,
  body: await depositTestCredits(services, member, body.amount),
}));
