import { redeliverEvent as redeliver, subscribed } from '../../domain/webhooks/delivery.js';
import { findWebhookEndpoint, receiverOfMode } from '../../domain/webhooks/endpoints.js';
import { findEvent, presentDelivery } from '../../domain/webhooks/presentation.js';
import { implementJwt } from '../implement-jwt.js';
import * as webhooks from '../routes/webhooks.js';

// Webhook events (management surface): list, read, redeliver.

export const listEvents = implementJwt(webhooks.listEvents, async ({ services, member, query }) => {
  const page = await services.webhooks.listEvents({
    orgId: member.orgId,
    limit: query.limit,
    ...(query.starting_after ? { startingAfter: query.starting_after } : {}),
    ...(query.type ? { type: query.type } : {}),
    ...(query.job_id ? { jobId: query.job_id } : {}),
    ...(query.created_gte !== undefined ? { createdGte: query.created_gte } : {}),
  });
  return { status: 200, body: { object: 'list' as const, data: page.items, has_more: page.hasMore } };
});

export const getEvent = implementJwt(webhooks.getEvent, async ({ services, member, params }) => ({
  status: 200,
  body: (await findEvent(services, member, params.id)).event,
}));

/** A new delivery with a fresh retry schedule; the event id stays the same, so receivers still deduplicate. */
export const redeliverEvent = implementJwt(webhooks.redeliverEvent, async ({ services, member, params, body }) => {
  const record = await findEvent(services, member, params.id);
  const endpoints = body.endpoint_id
    ? [receiverOfMode(record, await findWebhookEndpoint(services, member, body.endpoint_id, 'endpoint_id'))]
    : (await services.webhooks.listEndpoints(member.orgId)).filter((endpoint) => subscribed(endpoint, record));
  const deliveries = await redeliver(services, record, endpoints);
  return { status: 202, body: { object: 'list' as const, data: deliveries.map(presentDelivery), has_more: false } };
});
