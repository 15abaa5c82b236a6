import * as z from 'zod/mini';
import { ID_BODY_PATTERN } from '../domain/kernel/ids.js';
import { WEBHOOK_EVENT_TYPES } from '../domain/webhooks/records.js';
import { MAX_ATTEMPTS } from '../domain/webhooks/retry-policy.js';
import { BatchSchema } from './batches.js';
import { EndpointSlugSchema, JobListQuerySchema, JobSchema, JobStageSchema, listOf, Timestamp } from './records.js';
import { describe, meta } from './zod.js';

const id = (prefix: string) => z.string().check(z.regex(new RegExp(`^${prefix}_${ID_BODY_PATTERN}$`)));

const DeliveryStatusSchema = z.enum(['pending', 'delivered', 'failed']);

export const WebhookEventTypeSchema = meta(describe(z.enum(WEBHOOK_EVENT_TYPES), 'event type'), {
  id: 'WebhookEventType',
});
export const WebhookEndpointIdParams = z.object({ id: describe(id('whe'), 'webhook endpoint id') });
export const EventIdParams = z.object({ id: describe(id('evt'), 'event id') });

export const WebhookEndpointSchema = meta(
  z.strictObject({
    id: id('whe'),
    object: z.literal('webhook_endpoint'),
    livemode: describe(
      z.boolean(),
      "the mode whose events it receives: live endpoints get live jobs' events, test endpoints test jobs' events",
    ),
    url: describe(z.string(), 'https destination (the local runtime also takes http://127.0.0.1 and http://localhost)'),
    enabled_events: z.array(WebhookEventTypeSchema),
    description: z.nullable(z.string()),
    api_version: describe(z.string(), 'contract version of the payloads sent here, pinned at creation'),
    status: z.enum(['enabled', 'disabled']),
    created: Timestamp,
  }),
  { id: 'WebhookEndpoint' },
);

export const WebhookEndpointWithSecretSchema = meta(
  z.extend(WebhookEndpointSchema, {
    secret: describe(
      z.string().check(z.regex(/^whsec_[A-Za-z0-9+/]{43}=$/)),
      'signing secret, shown once: store it now',
    ),
  }),
  { id: 'WebhookEndpointWithSecret' },
);

export const WebhookEndpointListSchema = listOf(WebhookEndpointSchema, 'WebhookEndpointList');

export const CreateWebhookEndpointSchema = meta(
  z.strictObject({
    url: describe(z.string().check(z.maxLength(2048)), 'https URL of the receiver'),
    enabled_events: describe(
      z.array(WebhookEventTypeSchema).check(z.minLength(1), z.maxLength(WEBHOOK_EVENT_TYPES.length)),
      'events to send',
    ),
    description: z.optional(z.nullable(z.string().check(z.maxLength(500)))),
    livemode: describe(
      z._default(z.boolean(), false),
      "true: receives the live mode's events; false (default): the test mode's",
    ),
  }),
  { id: 'CreateWebhookEndpoint' },
);

export const DeletedWebhookEndpointSchema = meta(
  z.strictObject({ id: id('whe'), object: z.literal('webhook_endpoint'), deleted: z.literal(true) }),
  {
    id: 'DeletedWebhookEndpoint',
  },
);

export const RotateWebhookSecretSchema = meta(
  z.strictObject({
    expire_previous_after_seconds: describe(
      z._default(z.int().check(z.minimum(0), z.maximum(604_800)), 86_400),
      'how long the previous secret keeps signing beside the new one (both v1 are sent); 0 = at once',
    ),
  }),
  { id: 'RotateWebhookSecret' },
);

export const EventSchema = meta(
  z.strictObject({
    id: describe(id('evt'), 'stable across retries: deduplicate on it'),
    object: z.literal('event'),
    type: WebhookEventTypeSchema,
    api_version: z.string(),
    created: Timestamp,
    data: z.union([
      meta(
        z.strictObject({
          job: describe(JobSchema, 'the job as it was when the event fired'),
          stage: describe(z.nullable(JobStageSchema), 'inspection.stage_completed only'),
        }),
        { id: 'EventData' },
      ),
      meta(z.strictObject({ batch: describe(BatchSchema, 'the completed batch (docs/batches.md)') }), {
        id: 'BatchEventData',
      }),
    ]),
  }),
  { id: 'Event' },
);

export const EventListSchema = listOf(EventSchema, 'EventList');

export const EventListQuerySchema = z.strictObject({
  limit: JobListQuerySchema.shape.limit,
  starting_after: describe(z.optional(id('evt')), 'id of the last event of the previous page'),
  type: z.optional(WebhookEventTypeSchema),
  job_id: describe(z.optional(id('job')), 'events about this job'),
  created_gte: describe(
    z.optional(z.coerce.number().check(z.int(), z.minimum(0))),
    'events created at or after this epoch second',
  ),
});

export const WebhookDeliverySchema = meta(
  z.strictObject({
    id: id('whd'),
    object: z.literal('webhook_delivery'),
    endpoint_id: id('whe'),
    event_id: id('evt'),
    event_type: WebhookEventTypeSchema,
    attempt: describe(z.int().check(z.minimum(0), z.maximum(MAX_ATTEMPTS)), 'attempts made so far'),
    status: DeliveryStatusSchema,
    status_code: describe(z.nullable(z.int()), 'status of the last attempt; null when it got no answer'),
    duration_ms: z.nullable(z.int().check(z.minimum(0))),
    error: describe(z.nullable(z.string()), 'transport error or timeout of the last attempt'),
    next_attempt_at: describe(
      z.nullable(Timestamp),
      'when the next attempt is due (the last one 24 h after the first, never earlier); null once delivered or failed',
    ),
    created: Timestamp,
  }),
  { id: 'WebhookDelivery' },
);

export const WebhookDeliveryListSchema = listOf(WebhookDeliverySchema, 'WebhookDeliveryList');

export const DeliveryListQuerySchema = z.strictObject({
  limit: JobListQuerySchema.shape.limit,
  starting_after: describe(z.optional(id('whd')), 'id of the last delivery of the previous page'),
  status: z.optional(DeliveryStatusSchema),
  endpoint: describe(
    z.optional(EndpointSlugSchema),
    'only deliveries of events about jobs of this inference endpoint (deliveries created before this filter existed match none)',
  ),
});

export const WebhookTestRequestSchema = meta(
  z.strictObject({
    event_type: z._default(WebhookEventTypeSchema, 'job.succeeded'),
    endpoint: describe(z._default(EndpointSlugSchema, 'plate.read'), 'whose sandbox model builds the payload'),
  }),
  { id: 'WebhookTestRequest' },
);

export const WebhookTestResultSchema = meta(
  z.strictObject({
    delivery_id: id('whd'),
    delivered: describe(z.boolean(), 'true when the destination answered 2xx'),
    status_code: z.nullable(z.int()),
    duration_ms: z.int().check(z.minimum(0)),
    event: describe(EventSchema, 'exact payload sent; the signature travels in the headers'),
    error: z.nullable(z.string()),
  }),
  { id: 'WebhookTestResult' },
);

export const RedeliverRequestSchema = meta(
  z.strictObject({
    endpoint_id: describe(
      z.optional(id('whe')),
      "one endpoint of the event's mode; omitted: every endpoint of its mode subscribed to its type",
    ),
  }),
  {
    id: 'RedeliverRequest',
  },
);
