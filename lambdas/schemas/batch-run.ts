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
