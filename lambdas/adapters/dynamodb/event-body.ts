import { gunzipSync, gzipSync } from 'node:zlib';
import type { WebhookEvent } from '../../domain/webhooks/records.js';

/**
 * An event is stored with its body (`data.job`, the whole job as it was when the event fired, an
 * inspection with every stage result so far) gzip-compressed in one binary attribute. DynamoDB
 * bills every write of an item, and every update of it (marked dispatched, redacted), by the
 * item's whole size per KB: a job's JSON compresses several times over (docs/internals/cost.md).
 * What the lists filter on (`type`, `job_id`, `created`) stays in plain attributes beside it.
 */
export const EVENT_BODY_ATTRIBUTE = 'event_gz';

/** The attribute that holds the event, as an item stores it. */
export function packedEvent(event: WebhookEvent): { [EVENT_BODY_ATTRIBUTE]: Uint8Array } {
  return { [EVENT_BODY_ATTRIBUTE]: gzipSync(JSON.stringify(event)) };
}

/** The event of an item: compressed, or whole as events were stored before compression (`event`). */
export function unpackedEvent(item: Record<string, unknown>): WebhookEvent {
  const body = item[EVENT_BODY_ATTRIBUTE];
  if (body instanceof Uint8Array) return JSON.parse(gunzipSync(body).toString('utf8')) as WebhookEvent;
  return item.event as WebhookEvent;
}
