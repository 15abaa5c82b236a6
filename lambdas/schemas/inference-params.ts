import * as z from 'zod/mini';
import type { EndpointSlug } from '../domain/catalogue/catalogue.js';
import { INSPECTION_STAGE_NAMES } from '../domain/catalogue/inspection-stages.js';
import { loadParamsSchema } from './params/load.js';
import { describe } from './zod.js';

export const inspectionParamsSchema = z.strictObject({
  stages: describe(
    z.optional(
      z.strictObject({
        exclude: z._default(
          describe(
            z.array(z.enum(INSPECTION_STAGE_NAMES)).check(z.maxLength(INSPECTION_STAGE_NAMES.length)),
            'stage names to skip; they show skipped: true',
          ),
          [],
        ),
      }),
    ),
    'which of the eight stages to run',
  ),
});

/** The parameters an inference call accepts besides its input (loaded on first use: see params/load.ts). */
export async function loadInferenceParamsSchema(slug: EndpointSlug): Promise<z.ZodMiniType<Record<string, unknown>>> {
  return slug === 'inspections'
    ? inspectionParamsSchema
    : ((await loadParamsSchema(slug)) as z.ZodMiniType<Record<string, unknown>>);
}
