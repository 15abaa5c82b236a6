import { findWebhookEndpoint, rotateWebhookSecret as rotate } from '../../../domain/webhooks/endpoints.js';
import { presentWebhookEndpoint } from '../../../domain/webhooks/presentation.js';
import {
  RotateWebhookSecretSchema,
  WebhookEndpointIdParams,
  WebhookEndpointWithSecretSchema,
} from '../../../schemas/webhooks.js';
import { implementJwt } from '../../implement-jwt.js';
import { managementRoute } from '../define.js';

export const route = managementRoute({
  module: import.meta.url,
  id: 'rotate-webhook-secret',
  method: 'POST',
  path: '/mgmt/v1/webhook-endpoints/{id}/rotate-secret',
  minimumRole: 'admin',
  summary: 'A new signing secret, returned once; the previous one keeps signing (a second v1) during the overlap',
  params: WebhookEndpointIdParams,
  notFound: 'webhook_endpoint_not_found',
  body: RotateWebhookSecretSchema,
  responses: {
    200: { description: 'the endpoint, with its new secret (shown once)', schema: WebhookEndpointWithSecretSchema },
  },
  errors: [],
  middleware: ['idempotency-without-secret', 'strict-input'],
  access: { table: 'readwrite' },
});

export const handler = implementJwt(route, async ({ services, member, params, body }) => {
  const endpoint = await findWebhookEndpoint(services, member, params.id);
  const secret = await rotate(services, endpoint, body.expire_previous_after_seconds);
  return { status: 200, body: { ...presentWebhookEndpoint(endpoint), secret } };
});
