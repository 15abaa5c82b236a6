import * as z from 'zod/mini';
import { INSPECTION_STAGE_NAMES } from '../domain/catalogue/stage-names.js';
import { JobId } from './records.js';
import { describe } from './zod.js';

const Failure = describe(
  z.optional(z.object({ Error: z.optional(z.string()), Cause: z.optional(z.string()) })),
  "the catch's `{ Error, Cause }`",
);
const Stage = z.enum(INSPECTION_STAGE_NAMES);

/** The payloads statemachines/inspection.asl.json sends the stage worker (one per lambda:invoke task). */
export const StageActionSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('begin'), inspection_id: JobId }),
  z.object({
    action: z.literal('start_stage'),
    inspection_id: JobId,
    stage: Stage,
    task_token: z.string().check(z.minLength(1)),
  }),
  z.object({ action: z.literal('record_stage'), inspection_id: JobId, stage: Stage }),
  z.object({ action: z.literal('skip_stage'), inspection_id: JobId, stage: Stage }),
  z.object({ action: z.literal('finalize'), inspection_id: JobId }),
  z.object({ action: z.literal('cancel_remaining'), inspection_id: JobId, failure: Failure }),
  z.object({ action: z.literal('fail_inspection'), inspection_id: JobId, failure: Failure }),
]);
