import type { Context } from 'aws-lambda';
import { containerFromEnvironment, refreshRuntimeSecrets } from '../composition/container.js';
import { type SweepOutcome, sweepOnce } from '../domain/sweeper/sweep.js';
import { batchLineReader } from '../http/inference/batch-line.js';

/**
 * Left of the function's time when the run stops reading due jobs: the page under way, the webhook
 * re-sends and the batch take-overs finish in it (docs/internals/operations.md, "The sweeper").
 */
export const STOP_BEFORE_TIMEOUT_MS = 20_000;

/** Without a Lambda context (a direct call): the lease a 60 s function would hold. */
const LEASE_WITHOUT_CONTEXT_MS = 60_000;

/**
 * Scheduled every minute: one sweep (lambdas/domain/sweeper/sweep.ts) under the sweeper's lease,
 * or `{ skipped: true }` when the previous run still holds it.
 */
export async function handler(
  _event?: unknown,
  context?: Pick<Context, 'getRemainingTimeInMillis'>,
): Promise<SweepOutcome | { skipped: true }> {
  const services = containerFromEnvironment();
  // live jobs are submitted signed with the callback secret, read at run time
  await refreshRuntimeSecrets(services);
  const outcome = await sweepOnce(services, batchLineReader(services), {
    leaseMs: context?.getRemainingTimeInMillis() ?? LEASE_WITHOUT_CONTEXT_MS,
    goOn: () => (context ? context.getRemainingTimeInMillis() > STOP_BEFORE_TIMEOUT_MS : true),
  });
  if (!outcome) {
    services.log.info('sweep skipped: the previous run still holds the lease');
    return { skipped: true };
  }
  const { expired, redriven, failed, leftForNextRun, webhooks, batches } = outcome;
  if (expired || redriven || failed || leftForNextRun || webhooks.events || webhooks.deliveries || batches)
    services.log.info('sweep', { ...outcome });
  return outcome;
}
