import { depositTestCredits } from '../../../domain/money/billing.js';
import { LedgerEntrySchema, TestCreditsRequestSchema } from '../../../schemas/management.js';
import { implementJwt } from '../../implement-jwt.js';
import { managementRoute } from '../define.js';

export const route = managementRoute({
  module: import.meta.url,
  id: 'create-test-credits',
  method: 'POST',
  path: '/mgmt/v1/billing/test-credits',
  minimumRole: 'admin',
  summary: 'Add free simulated credits to the test balance (never the live one)',
  body: TestCreditsRequestSchema,
  responses: { 200: { description: 'the deposit entry', schema: LedgerEntrySchema } },
  errors: ['resource_not_found'],
  access: { table: 'readwrite' },
});

/** `POST /mgmt/v1/billing/test-credits`: the test balance only; free, never invoiced. */
export const handler = implementJwt(route, async ({ services, member, body }) => ({
  status: 200,
  body: await depositTestCredits(services, member, body.amount),
}));
