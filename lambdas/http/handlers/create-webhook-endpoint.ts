import { createWebhookEndpoint as create } from '../../domain/webhooks/endpoints.js';
import { presentWebhookEndpoint } from '../../domain/webhooks/presentation.js';
import { implementJwt } from '../implement-jwt.js';
import { createWebhookEndpoint } from '../routes/webhooks.js';

/** `POST /mgmt/v1/webhook-endpoints`: the only answer that carries the secret (never stored for replay). */
export const handler = implementJwt(createWebhookEndpoint, async ({ services, member, body }) => {
  const endpoint = await create(services, member.orgId, body);
  return { status: 201, body: { ...presentWebhookEndpoint(endpoint), secret: endpoint.secrets[0]!.secret } };
});
