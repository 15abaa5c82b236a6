import { depositTestCredits } from '../../domain/money/billing.js';
import { implementJwt } from '../implement-jwt.js';
import { createTestCredits } from '../routes/management.js';

/** `POST /mgmt/v1/billing/test-credits`: the test balance only; free, never invoiced. */
export const handler = implementJwt(createTestCredits, async ({ services, member, body }) => ({ status: 200, body: await depositTestCredits(services, member, body.amount) }));
