import * as z from 'zod/mini';
import { meta } from './zod.js';
import type { EndpointSlug } from '../domain/catalogue/catalogue.js';
import { JobSchema } from './records.js';
import { resultSchemas } from './results/index.js';

function pascal(slug: string): string {
  return slug
    .split(/[^a-z0-9]/i)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

/** The job an inference call answers, with that endpoint's own result schema (`PlateReadJob`, …). */
export function inferenceJobSchema(slug: EndpointSlug): z.ZodMiniType {
  if (slug === 'inspections') return JobSchema;
  return meta(z.extend(JobSchema, { result: z.nullable(resultSchemas[slug]) }), { id: `${pascal(slug)}Job` });
}
