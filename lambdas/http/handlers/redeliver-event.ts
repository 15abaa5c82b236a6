import { redeliverEvent as redeliver } from '../../domain/webhooks/delivery.js';
import { findWebhookEndpoint } from '../../domain/webhooks/endpoints.js';
import { findEvent, presentDelivery } from '../../domain/webhooks/presentation.js';
import { implementJwt } from '../implement-jwt.js';
import { redeliverEvent } from '../routes/webhooks.js';

/** A new delivery with a fresh retry schedule; the event id stays the same, so receivers still deduplicate. */
export const handler = implementJwt(redeliverEvent, async ({ services, member, params, body }) => {
  const record = await findEvent(services, member, params.id);
  const endpoints = body.endpoint_id
    ? [await findWebhookEndpoint(services, member, body.endpoint_id, 'endpoint_id')]
    : (await services.webhooks.listEndpoints(member.orgId)).filter((endpoint) => endpoint.status === 'enabled' && endpoint.enabled_events.includes(record.event.type));
  const deliveries = await redeliver(services, record, endpoints);
  return { status: 202, body: { object: 'list' as const, data: deliveries.map(presentDelivery), has_more: false } };
});
