import { listOf } from '../../../domain/kernel/page.js';
import { presentWebhookEndpoint } from '../../../domain/webhooks/presentation.js';
import { WebhookEndpointListSchema } from '../../../schemas/webhooks.js';
import { implementJwt } from '../../implement-jwt.js';
import { managementRoute } from '../define.js';

export const route = managementRoute({
  module: import.meta.url,
  id: 'list-webhook-endpoints',
  method: 'GET',
  path: '/mgmt/v1/webhook-endpoints',
  minimumRole: 'admin',
  summary: "List the organisation's webhook endpoints, newest first",
  responses: { 200: { description: 'every endpoint, newest first', schema: WebhookEndpointListSchema } },
  errors: [],
  access: { table: 'read' },
});

/** `GET /mgmt/v1/webhook-endpoints`: never the signing secrets. */
export const handler = implementJwt(route, async ({ services, member }) => {
  const endpoints = await services.webhooks.listEndpoints(member.orgId);
  return {
    status: 200,
    body: listOf(endpoints.map(presentWebhookEndpoint)),
  };
});
