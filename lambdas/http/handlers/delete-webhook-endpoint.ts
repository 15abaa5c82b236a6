import { ApiError } from '../../domain/kernel/errors.js';
import { findWebhookEndpoint } from '../../domain/webhooks/endpoints.js';
import { implementJwt } from '../implement-jwt.js';
import { deleteWebhookEndpoint } from '../routes/webhooks.js';

/** Every later attempt finds the endpoint gone and ends its delivery without a request. */
export const handler = implementJwt(deleteWebhookEndpoint, async ({ services, member, params }) => {
  const endpoint = await findWebhookEndpoint(services, member, params.id);
  if (!(await services.webhooks.deleteEndpoint(endpoint))) throw new ApiError('webhook_endpoint_not_found', 'id', `No webhook endpoint ${params.id}.`);
  return { status: 200, body: { id: endpoint.id, object: 'webhook_endpoint' as const, deleted: true as const } };
});
