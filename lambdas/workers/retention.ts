import type { Context } from 'aws-lambda';
import { containerFromEnvironment } from '../composition/container.js';
import { enforceRetention, type RetentionOutcome } from '../domain/erasure/retention.js';

/** Left of the function's time when the pass stops starting new steps: the step under way finishes in it. */
const STOP_BEFORE_TIMEOUT_MS = 60_000;

/**
 * Scheduled (lib/retention.ts): deletes every organisation's files older than its
 * `storage_retention_days` and redacts its older jobs. A pass that runs out of time stops between
 * steps; the next one carries on from the saved cursors.
 */
export async function handler(
  _event: unknown,
  context?: Pick<Context, 'getRemainingTimeInMillis'>,
): Promise<RetentionOutcome> {
  const services = containerFromEnvironment();
  return enforceRetention(services, {
    goOn: () => (context ? context.getRemainingTimeInMillis() > STOP_BEFORE_TIMEOUT_MS : true),
  });
}
