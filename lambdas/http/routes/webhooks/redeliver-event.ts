import { listOf } from '../../../domain/kernel/page.js';
import { redeliverEvent as redeliver, subscribed } from '../../../domain/webhooks/delivery.js';
import { findWebhookEndpoint, receiverOfMode } from '../../../domain/webhooks/endpoints.js';
import { findEvent, presentDelivery } from '../../../domain/webhooks/presentation.js';
import { EventIdParams, RedeliverRequestSchema, WebhookDeliveryListSchema } from '../../../schemas/webhooks.js';
import { implementJwt } from '../../implement-jwt.js';
import { managementRoute } from '../define.js';

export const route = managementRoute({
  module: import.meta.url,
  id: 'redeliver-event',
  method: 'POST',
  path: '/mgmt/v1/events/{id}/redeliver',
  minimumRole: 'admin',
  summary: 'Send an event again as a new delivery, to one endpoint or to every endpoint subscribed to its type',
  params: EventIdParams,
  notFound: 'event_not_found',
  body: RedeliverRequestSchema,
  responses: {
    202: { description: 'the deliveries created; they are attempted at once', schema: WebhookDeliveryListSchema },
  },
  errors: ['webhook_endpoint_not_found'],
  access: { table: 'readwrite', enqueueWebhooks: true },
});

/** A new delivery with a fresh retry schedule; the event id stays the same, so receivers still deduplicate. */
export const handler = implementJwt(route, async ({ services, member, params, body }) => {
  const record = await findEvent(services, member, params.id);
  const endpoints = body.endpoint_id
    ? [receiverOfMode(record, await findWebhookEndpoint(services, member, body.endpoint_id, 'endpoint_id'))]
    : (await services.webhooks.listEndpoints(member.orgId)).filter((endpoint) => subscribed(endpoint, record));
  const deliveries = await redeliver(services, record, endpoints);
  return { status: 202, body: listOf(deliveries.map(presentDelivery)) };
});
