import * as z from 'zod/mini';
import { describe } from './zod.js';
import type { EndpointSlug } from '../domain/catalogue/catalogue.js';
import { INSPECTION_STAGE_NAMES } from '../domain/catalogue/inspection-stages.js';
import { paramSchemas } from './params/index.js';

export const inspectionParamsSchema = z.strictObject({
  stages: describe(
    z.optional(z.strictObject({ exclude: z._default(describe(z.array(z.enum(INSPECTION_STAGE_NAMES)), 'stage names to skip; they show skipped: true'), []) })),
    'which of the eight stages to run',
  ),
});

/** The parameters an inference call accepts besides its input. */
export function inferenceParamsSchema(slug: EndpointSlug): z.ZodMiniType<Record<string, unknown>> {
  return slug === 'inspections' ? inspectionParamsSchema : (paramSchemas[slug] as z.ZodMiniType<Record<string, unknown>>);
}
