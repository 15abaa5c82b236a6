import * as z from 'zod/mini';
import { BATCH_ID_PATTERN } from '../domain/kernel/ids.js';

const BatchId = z.string().check(z.regex(BATCH_ID_PATTERN));
const LeaseToken = z.string().check(z.minLength(1));

/** The payloads statemachines/batch.asl.json sends the batch-run worker (one per lambda:invoke task). */
export const BatchRunActionSchema = z.discriminatedUnion('action', [
  z.object({
    action: z.literal('admit_lines'),
    batch_id: BatchId,
    lease_token: LeaseToken,
    items: z.array(z.object({ index: z.number().check(z.int(), z.nonnegative()), value: z.unknown() })),
  }),
  z.object({ action: z.literal('finish'), batch_id: BatchId, lease_token: LeaseToken }),
  z.object({ action: z.literal('release'), batch_id: BatchId, lease_token: LeaseToken }),
]);

/** What a batch run starts from (the execution's input, lambdas/adapters/step-functions/sfn-batch-runner.ts), as far as its end needs. */
export const BatchRunInputSchema = z.object({ batch_id: BatchId, lease_token: LeaseToken });

/** The ends of a run that EventBridge reports to the worker (lib/batches.ts): every one that did not succeed. */
export const FAILED_RUN_STATUSES = ['FAILED', 'TIMED_OUT', 'ABORTED'] as const;

/**
 * EventBridge's "Step Functions Execution Status Change" for a batch run that did not succeed;
 * `detail.input` is the execution's input as JSON text.
 */
export const FailedRunEventSchema = z.object({
  source: z.literal('aws.states'),
  'detail-type': z.literal('Step Functions Execution Status Change'),
  detail: z.object({ status: z.enum(FAILED_RUN_STATUSES), input: z.string() }),
});
