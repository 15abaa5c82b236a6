import { findWebhookEndpoint } from '../../domain/webhooks/endpoints.js';
import { sendTestEvent } from '../../domain/webhooks/test-event.js';
import { testEventSubject } from '../../fixtures/webhook-test-event.js';
import { implementJwt } from '../implement-jwt.js';
import { testWebhookEndpoint } from '../routes/webhooks.js';

/** Always 200 once the endpoint exists: whether the receiver took it is in the body. */
export const handler = implementJwt(testWebhookEndpoint, async ({ services, member, params, body }) => {
  const endpoint = await findWebhookEndpoint(services, member, params.id);
  const subject = await testEventSubject(services, member.orgId, body.event_type, body.endpoint);
  return { status: 200, body: await sendTestEvent(services, endpoint, body.event_type, subject) };
});
