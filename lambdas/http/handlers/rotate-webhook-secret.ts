import { findWebhookEndpoint, rotateWebhookSecret as rotate } from '../../domain/webhooks/endpoints.js';
import { presentWebhookEndpoint } from '../../domain/webhooks/presentation.js';
import { implementJwt } from '../implement-jwt.js';
import { rotateWebhookSecret } from '../routes/webhooks.js';

export const handler = implementJwt(rotateWebhookSecret, async ({ services, member, params, body }) => {
  const endpoint = await findWebhookEndpoint(services, member, params.id);
  const secret = await rotate(services, endpoint, body.expire_previous_after_seconds);
  return { status: 200, body: { ...presentWebhookEndpoint(endpoint), secret } };
});
