import { ApiError } from '../../domain/kernel/errors.js';
import {
  createWebhookEndpoint as create,
  findWebhookEndpoint,
  rotateWebhookSecret as rotate,
} from '../../domain/webhooks/endpoints.js';
import { presentDelivery, presentWebhookEndpoint } from '../../domain/webhooks/presentation.js';
import { checkTestEventRate, sendTestEvent } from '../../domain/webhooks/test-event.js';
import { testEventSubject } from '../../sandbox/webhook-test-event.js';
import { implementJwt } from '../implement-jwt.js';
import * as webhooks from '../routes/webhooks.js';

// Webhook endpoints (management surface), their secrets, test events and deliveries.

/** `GET /mgmt/v1/webhook-endpoints`: never the signing secrets. */
export const listWebhookEndpoints = implementJwt(webhooks.listWebhookEndpoints, async ({ services, member }) => {
  const endpoints = await services.webhooks.listEndpoints(member.orgId);
  return {
    status: 200,
    body: { object: 'list' as const, data: endpoints.map(presentWebhookEndpoint), has_more: false },
  };
});

/** `POST /mgmt/v1/webhook-endpoints`: the only answer that carries the secret (never stored for replay). */
export const createWebhookEndpoint = implementJwt(
  webhooks.createWebhookEndpoint,
  async ({ services, member, body }) => {
    const endpoint = await create(services, member.orgId, body);
    return { status: 201, body: { ...presentWebhookEndpoint(endpoint), secret: endpoint.secrets[0]!.secret } };
  },
);

export const getWebhookEndpoint = implementJwt(webhooks.getWebhookEndpoint, async ({ services, member, params }) => ({
  status: 200,
  body: presentWebhookEndpoint(await findWebhookEndpoint(services, member, params.id)),
}));

/** Every later attempt finds the endpoint gone and ends its delivery without a request. */
export const deleteWebhookEndpoint = implementJwt(
  webhooks.deleteWebhookEndpoint,
  async ({ services, member, params }) => {
    const endpoint = await findWebhookEndpoint(services, member, params.id);
    if (!(await services.webhooks.deleteEndpoint(endpoint)))
      throw new ApiError('webhook_endpoint_not_found', 'id', `No webhook endpoint ${params.id}.`);
    return { status: 200, body: { id: endpoint.id, object: 'webhook_endpoint' as const, deleted: true as const } };
  },
);

export const rotateWebhookSecret = implementJwt(
  webhooks.rotateWebhookSecret,
  async ({ services, member, params, body }) => {
    const endpoint = await findWebhookEndpoint(services, member, params.id);
    const secret = await rotate(services, endpoint, body.expire_previous_after_seconds);
    return { status: 200, body: { ...presentWebhookEndpoint(endpoint), secret } };
  },
);

/** 200 once the endpoint exists (429 past its test events a minute): whether the receiver took it is in the body. */
export const testWebhookEndpoint = implementJwt(
  webhooks.testWebhookEndpoint,
  async ({ services, member, params, body }) => {
    const endpoint = await findWebhookEndpoint(services, member, params.id);
    await checkTestEventRate(services, endpoint);
    const subject = await testEventSubject(
      services,
      { orgId: member.orgId, livemode: endpoint.livemode },
      body.event_type,
      body.endpoint,
    );
    return { status: 200, body: await sendTestEvent(services, endpoint, body.event_type, subject) };
  },
);

export const listWebhookDeliveries = implementJwt(
  webhooks.listWebhookDeliveries,
  async ({ services, member, params, query }) => {
    const endpoint = await findWebhookEndpoint(services, member, params.id);
    const page = await services.webhooks.listDeliveries({
      endpointId: endpoint.id,
      limit: query.limit,
      ...(query.starting_after ? { startingAfter: query.starting_after } : {}),
      ...(query.status ? { status: query.status } : {}),
      ...(query.endpoint ? { jobEndpoint: query.endpoint } : {}),
    });
    return {
      status: 200,
      body: { object: 'list' as const, data: page.items.map(presentDelivery), has_more: page.hasMore },
    };
  },
);
