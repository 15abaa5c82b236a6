import type { Member } from '../access/member.js';
import { requireSameOrganization } from '../access/members.js';
import { organizationNotFound } from '../access/organization-view.js';
import { epochSeconds } from '../kernel/clock.js';
import { ApiError } from '../kernel/errors.js';
import { timeOrderedId } from '../kernel/ids.js';
import { modeOf } from '../kernel/mode.js';
import { checkPublicUrl } from '../kernel/public-urls.js';
import type { Services } from '../ports/services.js';
import type { EventRecord, WebhookEndpointRecord, WebhookEventType } from './records.js';
import { newWebhookSecret } from './signing.js';

/** https only; the local runtime alone also takes http://127.0.0.1 and http://localhost (docs/internals/webhooks.md). */
export function checkWebhookUrl(services: Services, url: string): void {
  if (services.config.runtime === 'local') {
    try {
      const parsed = new URL(url);
      if (
        (parsed.protocol === 'http:' || parsed.protocol === 'https:') &&
        ['127.0.0.1', 'localhost', '[::1]'].includes(parsed.hostname)
      )
        return;
    } catch {
      // falls through to the public check, which explains what is wrong
    }
  }
  const check = checkPublicUrl(url, { httpsOnly: true });
  if (!check.ok) throw new ApiError('url_not_public', 'url', `url ${check.reason}.`);
}

export interface EndpointRequest {
  url: string;
  /** default false: a test endpoint */
  livemode?: boolean | undefined;
  enabled_events: WebhookEventType[];
  description?: string | null | undefined;
}

export async function createWebhookEndpoint(
  services: Services,
  orgId: string,
  request: EndpointRequest,
): Promise<WebhookEndpointRecord> {
  checkWebhookUrl(services, request.url);
  const endpoint: WebhookEndpointRecord = {
    id: timeOrderedId('whe', services.clock.nowMs()),
    org_id: orgId,
    livemode: request.livemode ?? false,
    url: request.url,
    enabled_events: [...new Set(request.enabled_events)],
    description: request.description ?? null,
    api_version: services.config.apiVersion,
    status: 'enabled',
    created: epochSeconds(services.clock),
    secrets: [{ secret: newWebhookSecret(), expires_at: null }],
  };
  if (!(await services.webhooks.putEndpoint(endpoint))) throw organizationNotFound(orgId);
  return endpoint;
}

/**
 * The member's endpoint. Absent → 404; another organisation's → 403, like jobs and API keys (docs/internals/management.md,
 * "Errors"). `param` names where the id came from: the path, or a body field.
 */
export async function findWebhookEndpoint(
  services: Services,
  member: Member,
  id: string,
  param = 'id',
): Promise<WebhookEndpointRecord> {
  const endpoint = await services.webhooks.getEndpoint(id);
  if (!endpoint) throw new ApiError('webhook_endpoint_not_found', param, `No webhook endpoint ${id}.`);
  requireSameOrganization(member, endpoint.org_id, 'webhook endpoint');
  return endpoint;
}

/** An endpoint named to receive an event must be of the event's mode: a live endpoint never gets a test event, nor the reverse. */
export function receiverOfMode(
  record: Pick<EventRecord, 'livemode' | 'event'>,
  endpoint: WebhookEndpointRecord,
): WebhookEndpointRecord {
  if (endpoint.livemode === record.livemode) return endpoint;
  throw new ApiError(
    'parameter_invalid',
    'endpoint_id',
    `${endpoint.id} receives ${modeOf(endpoint.livemode)} events only; ${record.event.id} is a ${modeOf(record.livemode)} event.`,
  );
}

/** A new current secret; the old ones keep signing for `overlapSeconds` (both `v1` are sent meanwhile). */
export async function rotateWebhookSecret(
  services: Services,
  endpoint: WebhookEndpointRecord,
  overlapSeconds: number,
): Promise<string> {
  const now = epochSeconds(services.clock);
  const secret = newWebhookSecret();
  const retired = endpoint.secrets
    .filter((s) => s.expires_at === null || s.expires_at > now)
    .map((s) => ({
      secret: s.secret,
      expires_at: Math.min(s.expires_at ?? Number.POSITIVE_INFINITY, now + overlapSeconds),
    }))
    .filter((s) => s.expires_at > now);
  if (!(await services.webhooks.setSecrets(endpoint.id, [{ secret, expires_at: null }, ...retired])))
    throw new ApiError('webhook_endpoint_not_found', 'id', `No webhook endpoint ${endpoint.id}.`);
  return secret;
}
