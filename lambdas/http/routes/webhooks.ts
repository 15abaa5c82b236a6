import {
  CreateWebhookEndpointSchema,
  DeletedWebhookEndpointSchema,
  DeliveryListQuerySchema,
  EventIdParams,
  EventListQuerySchema,
  EventListSchema,
  EventSchema,
  RedeliverRequestSchema,
  RotateWebhookSecretSchema,
  WebhookDeliveryListSchema,
  WebhookEndpointIdParams,
  WebhookEndpointListSchema,
  WebhookEndpointSchema,
  WebhookEndpointWithSecretSchema,
  WebhookTestRequestSchema,
  WebhookTestResultSchema,
} from '../../schemas/webhooks.js';
import { managementRoute } from './define.js';

const READ = { table: 'read' } as const;
const WRITE = { table: 'readwrite' } as const;
// a test event runs the sandbox model (its files go to outputs/) and presents the job (signs them)
const TEST_EVENT = { table: 'readwrite', writeObjects: ['outputs'], readObjects: ['outputs'] } as const;
const REDELIVER = { table: 'readwrite', enqueueWebhooks: true } as const;

export const listWebhookEndpoints = managementRoute({
  id: 'list-webhook-endpoints',
  method: 'GET',
  path: '/mgmt/v1/webhook-endpoints',
  minimumRole: 'admin',
  summary: "List the organisation's webhook endpoints, newest first",
  responses: { 200: { description: 'every endpoint, newest first', schema: WebhookEndpointListSchema } },
  errors: [],
  access: READ,
  handler: 'webhook-endpoints#listWebhookEndpoints',
});

export const createWebhookEndpoint = managementRoute({
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
  idempotency: 'without-secret',
  access: WRITE,
  handler: 'webhook-endpoints#createWebhookEndpoint',
});

export const getWebhookEndpoint = managementRoute({
  id: 'get-webhook-endpoint',
  method: 'GET',
  path: '/mgmt/v1/webhook-endpoints/{id}',
  minimumRole: 'admin',
  summary: 'Retrieve a webhook endpoint',
  params: WebhookEndpointIdParams,
  notFound: 'webhook_endpoint_not_found',
  responses: { 200: { description: 'the endpoint', schema: WebhookEndpointSchema } },
  errors: [],
  access: READ,
  handler: 'webhook-endpoints#getWebhookEndpoint',
});

export const deleteWebhookEndpoint = managementRoute({
  id: 'delete-webhook-endpoint',
  method: 'DELETE',
  path: '/mgmt/v1/webhook-endpoints/{id}',
  minimumRole: 'admin',
  summary: 'Delete a webhook endpoint: deliveries stop at once, pending retries included',
  params: WebhookEndpointIdParams,
  notFound: 'webhook_endpoint_not_found',
  responses: { 200: { description: 'deleted', schema: DeletedWebhookEndpointSchema } },
  errors: [],
  access: WRITE,
  handler: 'webhook-endpoints#deleteWebhookEndpoint',
});

export const testWebhookEndpoint = managementRoute({
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
  access: TEST_EVENT,
  timeoutSeconds: 25,
  handler: 'webhook-endpoints#testWebhookEndpoint',
});

export const listWebhookDeliveries = managementRoute({
  id: 'list-webhook-deliveries',
  method: 'GET',
  path: '/mgmt/v1/webhook-endpoints/{id}/deliveries',
  minimumRole: 'admin',
  summary: "The endpoint's delivery log, newest first: status, last status code, duration, error, next attempt",
  params: WebhookEndpointIdParams,
  notFound: 'webhook_endpoint_not_found',
  query: DeliveryListQuerySchema,
  responses: { 200: { description: 'a page of deliveries', schema: WebhookDeliveryListSchema } },
  errors: [],
  access: READ,
  handler: 'webhook-endpoints#listWebhookDeliveries',
});

export const rotateWebhookSecret = managementRoute({
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
  idempotency: 'without-secret',
  access: WRITE,
  handler: 'webhook-endpoints#rotateWebhookSecret',
});

export const listEvents = managementRoute({
  id: 'list-events',
  method: 'GET',
  path: '/mgmt/v1/events',
  minimumRole: 'admin',
  summary: 'Events of the organisation, newest first (reconcile after an outage); filters type, job_id, created_gte',
  query: EventListQuerySchema,
  responses: { 200: { description: 'a page of events', schema: EventListSchema } },
  errors: [],
  access: READ,
  handler: 'events#listEvents',
});

export const getEvent = managementRoute({
  id: 'get-event',
  method: 'GET',
  path: '/mgmt/v1/events/{id}',
  minimumRole: 'admin',
  summary: 'Retrieve one event exactly as it was sent',
  params: EventIdParams,
  notFound: 'event_not_found',
  responses: { 200: { description: 'the event', schema: EventSchema } },
  errors: [],
  access: READ,
  handler: 'events#getEvent',
});

export const redeliverEvent = managementRoute({
  id: 'redeliver-event',
  method: 'POST',
  path: '/mgmt/v1/events/{id}/redeliver',
  minimumRole: 'admin',
  summary: 'Send an event again as a new delivery, to one endpoint or to every endpoint subscribed to its type',
  params: EventIdParams,
  notFound: 'event_not_found',
  body: RedeliverRequestSchema,
  responses: {
    202: { description: 'the deliveries created; they are attempted at once', schema: WebhookDeliveryListSchema },
  },
  errors: ['webhook_endpoint_not_found'],
  access: REDELIVER,
  handler: 'events#redeliverEvent',
});

export const WEBHOOK_ROUTES = [
  listWebhookEndpoints,
  createWebhookEndpoint,
  getWebhookEndpoint,
  deleteWebhookEndpoint,
  testWebhookEndpoint,
  listWebhookDeliveries,
  rotateWebhookSecret,
  listEvents,
  getEvent,
  redeliverEvent,
] as const;
