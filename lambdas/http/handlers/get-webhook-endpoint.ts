import { findWebhookEndpoint } from '../../domain/webhooks/endpoints.js';
import { presentWebhookEndpoint } from '../../domain/webhooks/presentation.js';
import { implementJwt } from '../implement-jwt.js';
import { getWebhookEndpoint } from '../routes/webhooks.js';

export const handler = implementJwt(getWebhookEndpoint, async ({ services, member, params }) => ({
  status: 200,
  body: presentWebhookEndpoint(await findWebhookEndpoint(services, member, params.id)),
}));
