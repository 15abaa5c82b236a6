import type { Member } from '../access/member.js';
import { requireSameOrganization } from '../access/members.js';
import { ApiError } from '../kernel/errors.js';
import type { Services } from '../ports/services.js';
import type { DeliveryRecord, EventRecord, WebhookEndpointRecord } from './records.js';

/** The management record: never a secret (those are shown once, by create and rotate). */
export function presentWebhookEndpoint(endpoint: WebhookEndpointRecord) {
  return {
    id: endpoint.id,
    object: 'webhook_endpoint' as const,
    livemode: endpoint.livemode,
    url: endpoint.url,
    enabled_events: endpoint.enabled_events,
    description: endpoint.description,
    api_version: endpoint.api_version,
    status: endpoint.status,
    created: endpoint.created,
  };
}

export function presentDelivery(delivery: DeliveryRecord) {
  return {
    id: delivery.id,
    object: 'webhook_delivery' as const,
    endpoint_id: delivery.endpoint_id,
    event_id: delivery.event_id,
    event_type: delivery.event_type,
    attempt: delivery.attempt,
    status: delivery.status,
    status_code: delivery.status_code,
    duration_ms: delivery.duration_ms,
    error: delivery.error,
    next_attempt_at: delivery.next_attempt_at,
    created: delivery.created,
  };
}

/** The member's event. Absent → 404; another organisation's → 403 (docs/internals/management.md, "Errors"). */
export async function findEvent(services: Services, member: Member, id: string): Promise<EventRecord> {
  const record = await services.webhooks.getEvent(id);
  if (!record) throw new ApiError('event_not_found', 'id', `No event ${id}.`);
  requireSameOrganization(member, record.org_id, 'event');
  return record;
}
