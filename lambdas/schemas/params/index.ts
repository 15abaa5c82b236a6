import type { InferenceSlug } from '../../domain/catalogue/catalogue.js';
import { loadEvery } from '../../domain/kernel/load-once.js';
import { INFERENCE_PARAM_SLUGS, loadParamsSchema, type ParamsSchema } from './load.js';

export type { ParamsSchema } from './load.js';

/** Every endpoint's parameter schema at once, for the OpenAPI generator and tests; a Lambda loads only its own (`loadParamsSchema`). */
export const paramSchemas: Record<InferenceSlug, ParamsSchema> = await loadEvery(
  INFERENCE_PARAM_SLUGS,
  loadParamsSchema,
);
