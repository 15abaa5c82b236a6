import * as z from 'zod';
import { ID_BODY_PATTERN } from '../domain/kernel/ids.js';
import { WEBHOOK_EVENT_TYPES } from '../domain/webhooks/records.js';
import { MAX_ATTEMPTS } from '../domain/webhooks/retry-policy.js';
import { EndpointSlugSchema, JobListQuerySchema, JobSchema, JobStageSchema, listOf, Timestamp } from './records.js';

const id = (prefix: string) => z.string().regex(new RegExp(`^${prefix}_${ID_BODY_PATTERN}$`));

export const WebhookEventTypeSchema = z.enum(WEBHOOK_EVENT_TYPES).describe('event type').meta({ id: 'WebhookEventType' });
export const WebhookEndpointIdParams = z.object({ id: id('whe').describe('webhook endpoint id') });
export const EventIdParams = z.object({ id: id('evt').describe('event id') });

export const WebhookEndpointSchema = z
  .object({
    id: id('whe'),
    object: z.literal('webhook_endpoint'),
    url: z.string().describe('https destination (the local runtime also takes http://127.0.0.1 and http://localhost)'),
    enabled_events: z.array(WebhookEventTypeSchema),
    description: z.string().nullable(),
    api_version: z.string().describe('contract version of the payloads sent here, pinned at creation'),
    status: z.enum(['enabled', 'disabled']),
    created: Timestamp,
  })
  .strict()
  .meta({ id: 'WebhookEndpoint' });

export const WebhookEndpointWithSecretSchema = WebhookEndpointSchema.extend({
  secret: z
    .string()
    .regex(/^whsec_[A-Za-z0-9+/]{43}=$/)
    .describe('signing secret, shown once: store it now'),
})
  .strict()
  .meta({ id: 'WebhookEndpointWithSecret' });

export const WebhookEndpointListSchema = listOf(WebhookEndpointSchema, 'WebhookEndpointList');

export const CreateWebhookEndpointSchema = z
  .object({
    url: z.string().max(2048).describe('https URL of the receiver'),
    enabled_events: z.array(WebhookEventTypeSchema).min(1).describe('events to send'),
    description: z.string().max(500).nullable().optional(),
  })
  .strict()
  .meta({ id: 'CreateWebhookEndpoint' });

export const DeletedWebhookEndpointSchema = z
  .object({ id: id('whe'), object: z.literal('webhook_endpoint'), deleted: z.literal(true) })
  .strict()
  .meta({ id: 'DeletedWebhookEndpoint' });

export const RotateWebhookSecretSchema = z
  .object({
    expire_previous_after_seconds: z
      .int()
      .min(0)
      .max(604_800)
      .default(86_400)
      .describe('how long the previous secret keeps signing beside the new one (both v1 are sent); 0 = at once'),
  })
  .strict()
  .meta({ id: 'RotateWebhookSecret' });

export const EventSchema = z
  .object({
    id: id('evt').describe('stable across retries: deduplicate on it'),
    object: z.literal('event'),
    type: WebhookEventTypeSchema,
    api_version: z.string(),
    created: Timestamp,
    data: z
      .object({
        job: JobSchema.describe('the job as it was when the event fired'),
        stage: JobStageSchema.nullable().describe('inspection.stage_completed only'),
      })
      .strict()
      .meta({ id: 'EventData' }),
  })
  .strict()
  .meta({ id: 'Event' });

export const EventListSchema = listOf(EventSchema, 'EventList');

export const EventListQuerySchema = z
  .object({
    limit: JobListQuerySchema.shape.limit,
    starting_after: id('evt').optional().describe('id of the last event of the previous page'),
    type: WebhookEventTypeSchema.optional(),
    job_id: id('job').optional().describe('events about this job'),
    created_gte: z.coerce.number().int().min(0).optional().describe('events created at or after this epoch second'),
  })
  .strict();

export const WebhookDeliverySchema = z
  .object({
    id: id('whd'),
    object: z.literal('webhook_delivery'),
    endpoint_id: id('whe'),
    event_id: id('evt'),
    event_type: WebhookEventTypeSchema,
    attempt: z.int().min(0).max(MAX_ATTEMPTS).describe('attempts made so far'),
    status: z.enum(['pending', 'delivered', 'failed']),
    status_code: z.int().nullable().describe('status of the last attempt; null when it got no answer'),
    duration_ms: z.int().min(0).nullable(),
    error: z.string().nullable().describe('transport error or timeout of the last attempt'),
    next_attempt_at: Timestamp.nullable(),
    created: Timestamp,
  })
  .strict()
  .meta({ id: 'WebhookDelivery' });

export const WebhookDeliveryListSchema = listOf(WebhookDeliverySchema, 'WebhookDeliveryList');

export const DeliveryListQuerySchema = z
  .object({
    limit: JobListQuerySchema.shape.limit,
    starting_after: id('whd').optional().describe('id of the last delivery of the previous page'),
  })
  .strict();

export const WebhookTestRequestSchema = z
  .object({
    event_type: WebhookEventTypeSchema.default('job.succeeded'),
    endpoint: EndpointSlugSchema.default('plate.read').describe('whose sandbox fixture builds the payload'),
  })
  .strict()
  .meta({ id: 'WebhookTestRequest' });

export const WebhookTestResultSchema = z
  .object({
    delivery_id: id('whd'),
    delivered: z.boolean().describe('true when the destination answered 2xx'),
    status_code: z.int().nullable(),
    duration_ms: z.int().min(0),
    event: EventSchema.describe('exact payload sent; the signature travels in the headers'),
    error: z.string().nullable(),
  })
  .strict()
  .meta({ id: 'WebhookTestResult' });

export const RedeliverRequestSchema = z
  .object({ endpoint_id: id('whe').optional().describe('one endpoint; omitted: every endpoint subscribed to the event type') })
  .strict()
  .meta({ id: 'RedeliverRequest' });
