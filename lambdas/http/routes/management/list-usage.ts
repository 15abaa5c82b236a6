import { listOf } from '../../../domain/kernel/page.js';
import { usageWindow } from '../../../domain/money/usage.js';
import { UsageListSchema, UsageQuerySchema } from '../../../schemas/management.js';
import { implementJwt } from '../../implement-jwt.js';
import { managementRoute } from '../define.js';

export const route = managementRoute({
  module: import.meta.url,
  id: 'list-usage',
  method: 'GET',
  path: '/mgmt/v1/usage',
  minimumRole: 'member',
  summary: 'Usage per (day, endpoint, mode), newest day first, then endpoint',
  query: UsageQuerySchema,
  responses: { 200: { description: 'usage rows (at most 366 days)', schema: UsageListSchema } },
  errors: [],
  access: { table: 'read' },
});

/** `GET /mgmt/v1/usage`: rows kept by the admission and settlement transactions; no job is scanned. */
export const handler = implementJwt(route, async ({ services, member, query }) => {
  const data = await services.usage.list({
    orgId: member.orgId,
    ...usageWindow(services.clock.nowMs(), query.from, query.to),
    ...(query.endpoint ? { endpoint: query.endpoint } : {}),
    ...(query.livemode === undefined ? {} : { livemode: query.livemode }),
  });
  return { status: 200, body: listOf(data) };
});
