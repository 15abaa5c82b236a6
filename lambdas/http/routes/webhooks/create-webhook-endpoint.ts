import { createWebhookEndpoint as create } from '../../../domain/webhooks/endpoints.js';
import { presentWebhookEndpoint } from '../../../domain/webhooks/presentation.js';
import { CreateWebhookEndpointSchema, WebhookEndpointWithSecretSchema } from '../../../schemas/webhooks.js';
import { implementJwt } from '../../implement-jwt.js';
import { managementRoute } from '../define.js';

export const route = managementRoute({
  module: import.meta.url,
  id: 'create-webhook-endpoint',
  method: 'POST',
  path: '/mgmt/v1/webhook-endpoints',
  minimumRole: 'admin',
  summary: 'Register an https destination for the chosen events; the signing secret is returned once',
  body: CreateWebhookEndpointSchema,
  responses: {
    201: { description: 'the endpoint, with its signing secret (shown once)', schema: WebhookEndpointWithSecretSchema },
  },
  // resource_not_found: the token's organisation does not exist
  errors: ['url_not_public', 'resource_not_found'],
  middleware: ['idempotency-without-secret', 'strict-input'],
  access: { table: 'readwrite' },
});

/** `POST /mgmt/v1/webhook-endpoints`: the only answer that carries the secret (never stored for replay). */
export const handler = implementJwt(route, async ({ services, member, body }) => {
  const endpoint = await create(services, member.orgId, body);
  return { status: 201, body: { ...presentWebhookEndpoint(endpoint), secret: endpoint.secrets[0]!.secret } };
});
