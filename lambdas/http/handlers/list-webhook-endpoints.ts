import { presentWebhookEndpoint } from '../../domain/webhooks/presentation.js';
import { implementJwt } from '../implement-jwt.js';
import { listWebhookEndpoints } from '../routes/webhooks.js';

/** `GET /mgmt/v1/webhook-endpoints`: never the signing secrets. */
export const handler = implementJwt(listWebhookEndpoints, async ({ services, member }) => {
  const endpoints = await services.webhooks.listEndpoints(member.orgId);
  return { status: 200, body: { object: 'list' as const, data: endpoints.map(presentWebhookEndpoint), has_more: false } };
});
