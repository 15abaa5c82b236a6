import { currentWindow, refusalAdvice, refusedDecision } from '../access/rate-limits.js';
import type { JobRecord, StageRecord } from '../jobs/job.js';
import { presentJob } from '../jobs/job-view.js';
import { epochSeconds } from '../kernel/clock.js';
import { ApiError } from '../kernel/errors.js';
import { timeOrderedId } from '../kernel/ids.js';
import type { RateLimitWindow } from '../ports/access.js';
import type { Services } from '../ports/services.js';
import { deliveryRequest, newDelivery } from './delivery.js';
import type { WebhookEndpointRecord, WebhookEvent, WebhookEventType } from './records.js';
import { isDelivered } from './retry-policy.js';

export interface WebhookTestResult {
  delivery_id: string;
  delivered: boolean;
  status_code: number | null;
  duration_ms: number;
  event: WebhookEvent;
  error: string | null;
}

/** Each test event is an outbound request made on demand: a webhook endpoint takes at most this many a minute. */
export const TEST_EVENTS_PER_MINUTE = 30;

/** Counts one test event against the endpoint's fixed 60 s window; past the limit, 429 with the window's headers. */
export async function checkTestEventRate(services: Services, endpoint: WebhookEndpointRecord): Promise<void> {
  const { start, reset } = currentWindow(services.clock);
  const window: RateLimitWindow = {
    counterKey: `webhook-test#${endpoint.id}#${start}`,
    limit: TEST_EVENTS_PER_MINUTE,
    reset,
  };
  const count = await services.rateLimitCounter.hit(window.counterKey, window.reset);
  if (count <= window.limit) return;
  throw new ApiError(
    'rate_limit_exceeded',
    null,
    `At most ${TEST_EVENTS_PER_MINUTE} test events a minute per webhook endpoint; try again after the window resets.`,
    refusalAdvice(refusedDecision(window), epochSeconds(services.clock)),
  );
}

/**
 * One signed attempt of a synthetic event, answered in the same call: no job, no charge, no
 * retry. The attempt is kept in the endpoint's delivery log like any other.
 */
export async function sendTestEvent(
  services: Services,
  endpoint: WebhookEndpointRecord,
  type: WebhookEventType,
  subject: { job: JobRecord; stage: StageRecord | null },
): Promise<WebhookTestResult> {
  const job = await presentJob(services, subject.job);
  const stage = subject.stage
    ? (job.stages?.find((candidate) => candidate.stage === subject.stage!.stage) ?? null)
    : null;
  const event: WebhookEvent = {
    id: timeOrderedId('evt', services.clock.nowMs()),
    object: 'event',
    type,
    api_version: endpoint.api_version,
    created: epochSeconds(services.clock),
    data: { job, stage },
  };
  const delivery = newDelivery(services, timeOrderedId('whd', services.clock.nowMs()), event, endpoint);
  const outcome = await services.webhookSender.send(deliveryRequest(services, endpoint, event, 1));
  const delivered = isDelivered(outcome.statusCode);
  const fields = { status_code: outcome.statusCode, duration_ms: outcome.durationMs, error: outcome.error };
  await services.webhooks.createDelivery({
    ...delivery,
    ...fields,
    attempt: 1,
    status: delivered ? 'delivered' : 'failed',
    next_attempt_at: null,
    attempts: [{ attempt: 1, at: delivery.created, ...fields }],
  });
  return {
    delivery_id: delivery.id,
    delivered,
    status_code: outcome.statusCode,
    duration_ms: outcome.durationMs,
    event,
    error: outcome.error,
  };
}
