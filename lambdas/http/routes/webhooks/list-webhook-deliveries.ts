import { presentPage } from '../../../domain/kernel/page.js';
import { findWebhookEndpoint } from '../../../domain/webhooks/endpoints.js';
import { presentDelivery } from '../../../domain/webhooks/presentation.js';
import {
  DeliveryListQuerySchema,
  WebhookDeliveryListSchema,
  WebhookEndpointIdParams,
} from '../../../schemas/webhooks.js';
import { implementJwt } from '../../implement-jwt.js';
import { managementRoute } from '../define.js';

export const route = managementRoute({
  module: import.meta.url,
  id: 'list-webhook-deliveries',
  method: 'GET',
  path: '/mgmt/v1/webhook-endpoints/{id}/deliveries',
  minimumRole: 'admin',
  summary: "The endpoint's delivery log, newest first: status, last status code, duration, error, next attempt",
  params: WebhookEndpointIdParams,
  notFound: 'webhook_endpoint_not_found',
  query: DeliveryListQuerySchema,
  responses: { 200: { description: 'a page of deliveries', schema: WebhookDeliveryListSchema } },
  errors: [],
  access: { table: 'read' },
});

export const handler = implementJwt(route, async ({ services, member, params, query }) => {
  const endpoint = await findWebhookEndpoint(services, member, params.id);
  const page = await services.webhooks.listDeliveries({
    endpointId: endpoint.id,
    limit: query.limit,
    ...(query.starting_after ? { startingAfter: query.starting_after } : {}),
    ...(query.status ? { status: query.status } : {}),
    ...(query.endpoint ? { jobEndpoint: query.endpoint } : {}),
  });
  return {
    status: 200,
    body: await presentPage(page, presentDelivery),
  };
});
