import { findWebhookEndpoint } from '../../../domain/webhooks/endpoints.js';
import { presentWebhookEndpoint } from '../../../domain/webhooks/presentation.js';
import { WebhookEndpointIdParams, WebhookEndpointSchema } from '../../../schemas/webhooks.js';
import { implementJwt } from '../../implement-jwt.js';
import { managementRoute } from '../define.js';

export const route = managementRoute({
  module: import.meta.url,
  id: 'get-webhook-endpoint',
  method: 'GET',
  path: '/mgmt/v1/webhook-endpoints/{id}',
  minimumRole: 'admin',
  summary: 'Retrieve a webhook endpoint',
  params: WebhookEndpointIdParams,
  notFound: 'webhook_endpoint_not_found',
  responses: { 200: { description: 'the endpoint', schema: WebhookEndpointSchema } },
  errors: [],
  access: { table: 'read' },
});

export const handler = implementJwt(route, async ({ services, member, params }) => ({
  status: 200,
  body: presentWebhookEndpoint(await findWebhookEndpoint(services, member, params.id)),
}));
