import { findWebhookEndpoint } from '../../../domain/webhooks/endpoints.js';
import { checkTestEventRate, sendTestEvent } from '../../../domain/webhooks/test-event.js';
import { testEventSubject } from '../../../sandbox/webhook-test-event.js';
import {
  WebhookEndpointIdParams,
  WebhookTestRequestSchema,
  WebhookTestResultSchema,
} from '../../../schemas/webhooks.js';
import { implementJwt } from '../../implement-jwt.js';
import { managementRoute } from '../define.js';

export const route = managementRoute({
  module: import.meta.url,
  id: 'test-webhook-endpoint',
  method: 'POST',
  path: '/mgmt/v1/webhook-endpoints/{id}/test',
  minimumRole: 'admin',
  summary:
    'Send a synthetic, correctly signed event built from a sandbox model; nothing billed, no job; the outcome is in the body',
  params: WebhookEndpointIdParams,
  notFound: 'webhook_endpoint_not_found',
  body: WebhookTestRequestSchema,
  responses: {
    200: {
      description: 'the attempt was made; `delivered` says whether the destination answered 2xx',
      schema: WebhookTestResultSchema,
    },
  },
  // 429: at most TEST_EVENTS_PER_MINUTE a minute per endpoint (domain/webhooks/test-event.ts)
  errors: ['rate_limit_exceeded'],
  access: { table: 'readwrite', writeObjects: ['outputs'], readObjects: ['outputs'] },
  timeoutSeconds: 25,
});

/** 200 once the endpoint exists (429 past its test events a minute): whether the receiver took it is in the body. */
export const handler = implementJwt(route, async ({ services, member, params, body }) => {
  const endpoint = await findWebhookEndpoint(services, member, params.id);
  await checkTestEventRate(services, endpoint);
  const subject = await testEventSubject(
    services,
    { orgId: member.orgId, livemode: endpoint.livemode },
    body.event_type,
    body.endpoint,
  );
  return { status: 200, body: await sendTestEvent(services, endpoint, body.event_type, subject) };
});
