import * as z from 'zod';
import type { EndpointSlug } from '../domain/catalogue/catalogue.js';
import { INSPECTION_STAGE_NAMES } from '../domain/catalogue/inspection-stages.js';
import { paramSchemas } from './params/index.js';

export const inspectionParamsSchema = z
  .object({
    stages: z
      .object({ exclude: z.array(z.enum(INSPECTION_STAGE_NAMES)).describe('stage names to skip; they show skipped: true').default([]) })
      .strict()
      .optional()
      .describe('which of the eight stages to run'),
  })
  .strict();

/** The parameters an inference call accepts besides its input. */
export function inferenceParamsSchema(slug: EndpointSlug): z.ZodType<Record<string, unknown>> {
  return slug === 'inspections' ? inspectionParamsSchema : (paramSchemas[slug] as z.ZodType<Record<string, unknown>>);
}
