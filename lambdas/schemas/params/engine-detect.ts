import * as z from 'zod';
import { minConfidenceParam } from './fields.js';

export const EngineDetectParams = z
  .object({
    engine_type: z.enum(['auto', 'petrol', 'diesel', 'hybrid']).default('auto').describe('Engine type, or `auto` to infer it from the sound'),
    recording_position: z.enum(['auto', 'engine_bay', 'exhaust', 'cabin']).default('auto').describe('Where the microphone was during the recording'),
    min_confidence: minConfidenceParam(0.3),
  })
  .strict();
export type EngineDetectParams = z.output<typeof EngineDetectParams>;
