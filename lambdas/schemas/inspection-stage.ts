import * as z from 'zod';
import { INSPECTION_STAGE_NAMES } from '../domain/catalogue/stage-names.js';
import { JobId } from './records.js';

const Failure = z.object({ Error: z.string().optional(), Cause: z.string().optional() }).optional().describe("the catch's `{ Error, Cause }`");
const Stage = z.enum(INSPECTION_STAGE_NAMES);

/** The payloads statemachines/inspection.asl.json sends the stage worker (one per lambda:invoke task). */
export const StageActionSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('begin'), inspection_id: JobId }),
  z.object({ action: z.literal('start_stage'), inspection_id: JobId, stage: Stage, task_token: z.string().min(1) }),
  z.object({ action: z.literal('record_stage'), inspection_id: JobId, stage: Stage }),
  z.object({ action: z.literal('skip_stage'), inspection_id: JobId, stage: Stage }),
  z.object({ action: z.literal('finalize'), inspection_id: JobId }),
  z.object({ action: z.literal('cancel_remaining'), inspection_id: JobId, failure: Failure }),
  z.object({ action: z.literal('fail_inspection'), inspection_id: JobId, failure: Failure }),
]);
