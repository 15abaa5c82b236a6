import type { InferenceSlug } from '../../domain/catalogue/catalogue.js';
import { INFERENCE_PARAM_SLUGS, loadParamsSchema, type ParamsSchema } from './load.js';

export type { ParamsSchema } from './load.js';

/** Every endpoint's parameter schema at once, for the OpenAPI generator and tests; a Lambda loads only its own (`loadParamsSchema`). */
export const paramSchemas: Record<InferenceSlug, ParamsSchema> = Object.fromEntries(
  await Promise.all(INFERENCE_PARAM_SLUGS.map(async (slug) => [slug, await loadParamsSchema(slug)] as const)),
) as Record<InferenceSlug, ParamsSchema>;
