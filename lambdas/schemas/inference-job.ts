import type * as z from 'zod';
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
export function inferenceJobSchema(slug: EndpointSlug): z.ZodType {
  if (slug === 'inspections') return JobSchema;
  return JobSchema.extend({ result: resultSchemas[slug].nullable() }).meta({ id: `${pascal(slug)}Job` });
}
