import { findWebhookEndpoint } from '../../domain/webhooks/endpoints.js';
import { presentDelivery } from '../../domain/webhooks/presentation.js';
import { implementJwt } from '../implement-jwt.js';
import { listWebhookDeliveries } from '../routes/webhooks.js';

export const handler = implementJwt(listWebhookDeliveries, async ({ services, member, params, query }) => {
  const endpoint = await findWebhookEndpoint(services, member, params.id);
  const page = await services.webhooks.listDeliveries({
    endpointId: endpoint.id,
    limit: query.limit,
    ...(query.starting_after ? { startingAfter: query.starting_after } : {}),
    ...(query.status ? { status: query.status } : {}),
    ...(query.endpoint ? { jobEndpoint: query.endpoint } : {}),
  });
  return { status: 200, body: { object: 'list' as const, data: page.items.map(presentDelivery), has_more: page.hasMore } };
});
