import { findWebhookEndpoint } from '../../domain/webhooks/endpoints.js';
import { checkTestEventRate, sendTestEvent } from '../../domain/webhooks/test-event.js';
import { testEventSubject } from '../../sandbox/webhook-test-event.js';
import { implementJwt } from '../implement-jwt.js';
import { testWebhookEndpoint } from '../routes/webhooks.js';

/** 200 once the endpoint exists (429 past its test events a minute): whether the receiver took it is in the body. */
export const handler = implementJwt(testWebhookEndpoint, async ({ services, member, params, body }) => {
  const endpoint = await findWebhookEndpoint(services, member, params.id);
  await checkTestEventRate(services, endpoint);
  const subject = await testEventSubject(services, member.orgId, body.event_type, body.endpoint);
  return { status: 200, body: await sendTestEvent(services, endpoint, body.event_type, subject) };
});
