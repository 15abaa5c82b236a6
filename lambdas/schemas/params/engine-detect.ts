import * as z from 'zod/mini';
import { describe } from '../zod.js';
import { minConfidenceParam } from './fields.js';

export const EngineDetectParams = z.strictObject({
  engine_type: describe(
    z._default(z.enum(['auto', 'petrol', 'diesel', 'hybrid']), 'auto'),
    'Engine type, or `auto` to infer it from the sound',
  ),
  recording_position: describe(
    z._default(z.enum(['auto', 'engine_bay', 'exhaust', 'cabin']), 'auto'),
    'Where the microphone was during the recording',
  ),
  min_confidence: minConfidenceParam(0.3),
});
export type EngineDetectParams = z.output<typeof EngineDetectParams>;
