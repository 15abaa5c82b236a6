import * as z from 'zod/mini';
import { booleanParam, minConfidenceParam } from './fields.js';

export const DamageSeverityParams = z.strictObject({
  min_confidence: minConfidenceParam(0.4),
  include_repair_actions: booleanParam('Suggest a repair action per damage; `repair_action` is null when false', true),
});
export type DamageSeverityParams = z.output<typeof DamageSeverityParams>;
