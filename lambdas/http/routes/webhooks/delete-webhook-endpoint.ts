import { ApiError } from '../../../domain/kernel/errors.js';
import { findWebhookEndpoint } from '../../../domain/webhooks/endpoints.js';
import { DeletedWebhookEndpointSchema, WebhookEndpointIdParams } from '../../../schemas/webhooks.js';
import { implementJwt } from '../../implement-jwt.js';
import { managementRoute } from '../define.js';

export const route = managementRoute({
  module: import.meta.url,
  id: 'delete-webhook-endpoint',
  method: 'DELETE',
  path: '/mgmt/v1/webhook-endpoints/{id}',
  minimumRole: 'admin',
  summary: 'Delete a webhook endpoint: deliveries stop at once, pending retries included',
  params: WebhookEndpointIdParams,
  notFound: 'webhook_endpoint_not_found',
  responses: { 200: { description: 'deleted', schema: DeletedWebhookEndpointSchema } },
  errors: [],
  access: { table: 'readwrite' },
});

/** Every later attempt finds the endpoint gone and ends its delivery without a request. */
export const handler = implementJwt(route, async ({ services, member, params }) => {
  const endpoint = await findWebhookEndpoint(services, member, params.id);
  if (!(await services.webhooks.deleteEndpoint(endpoint)))
    throw new ApiError('webhook_endpoint_not_found', 'id', `No webhook endpoint ${params.id}.`);
  return { status: 200, body: { id: endpoint.id, object: 'webhook_endpoint' as const, deleted: true as const } };
});
