import type { PublicBatch } from '../batches/public-batch.js';
import type { EndpointSlug } from '../catalogue/catalogue.js';
import type { PublicJob, PublicStage } from '../jobs/public-job.js';

export const WEBHOOK_EVENT_TYPES = [
  'job.succeeded',
  'job.failed',
  'inspection.stage_completed',
  'batch.completed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export interface SigningSecret {
  secret: string;
  /** null while it is the current secret; set when a rotation retires it */
  expires_at: number | null;
}

export interface WebhookEndpointRecord {
  id: string;
  org_id: string;
  /** the mode whose events it receives (endpoints stored before modes existed read as test) */
  livemode: boolean;
  url: string;
  enabled_events: WebhookEventType[];
  description: string | null;
  api_version: string;
  status: 'enabled' | 'disabled';
  created: number;
  /** newest first; more than one only while a rotation's overlap lasts */
  secrets: SigningSecret[];
}

/** The Event envelope (docs/internals/webhooks.md, "Events"). */
export interface WebhookEvent {
  id: string;
  object: 'event';
  type: WebhookEventType;
  api_version: string;
  created: number;
  /** `batch.completed` carries the batch (docs/internals/batches.md); every other type the job */
  data: JobEventData | BatchEventData;
}

export interface JobEventData {
  job: PublicJob;
  stage: PublicStage | null;
}

export interface BatchEventData {
  batch: PublicBatch;
}

export function isJobEvent(data: WebhookEvent['data']): data is JobEventData {
  return 'job' in data;
}

export interface EventRecord {
  event: WebhookEvent;
  org_id: string;
  /** the job it is about (a `batch.completed` event: the batch) */
  job_id: string;
  livemode: boolean;
  /** false until the dispatcher has created one delivery per subscribed endpoint */
  dispatched: boolean;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface DeliveryAttempt {
  attempt: number;
  at: number;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
}

export interface DeliveryRecord {
  id: string;
  org_id: string;
  endpoint_id: string;
  event_id: string;
  event_type: WebhookEventType;
  /** attempts made so far */
  attempt: number;
  status: DeliveryStatus;
  status_code: number | null;
  duration_ms: number | null;
  error: string | null;
  next_attempt_at: number | null;
  created: number;
  attempts: DeliveryAttempt[];
  /**
   * internal, never presented: the endpoint slug of the event's job, so the delivery log can be
   * filtered by it; deliveries created before it was stored have none
   */
  job_endpoint?: EndpointSlug;
}

/** What one HTTP attempt came to. */
export interface SendOutcome {
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  retryAfterSeconds: number | null;
}
