import { usageWindow } from '../../domain/money/usage.js';
import { implementJwt } from '../implement-jwt.js';
import { listUsage } from '../routes/management.js';

/** `GET /mgmt/v1/usage`: rows kept by the admission and settlement transactions; no job is scanned. */
export const handler = implementJwt(listUsage, async ({ services, member, query }) => {
  const data = await services.usage.list({
    orgId: member.orgId,
    ...usageWindow(services.clock.nowMs(), query.from, query.to),
    ...(query.endpoint ? { endpoint: query.endpoint } : {}),
    ...(query.livemode === undefined ? {} : { livemode: query.livemode }),
  });
  return { status: 200, body: { object: 'list' as const, data, has_more: false } };
});
