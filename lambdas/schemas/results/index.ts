import type * as z from 'zod/mini';
import type { InferenceSlug } from '../../domain/catalogue/catalogue.js';
import { loadEvery } from '../../domain/kernel/load-once.js';
import type { WithFileRefs } from './file-refs.js';
import { loadResultSchema, type RESULT_SCHEMA_LOADERS, RESULT_SLUGS } from './load.js';

/**
 * Result schemas describe the PUBLIC shape of `job.result`: every produced file is a
 * SignedFile `{ url, expires_at, content_type, width, height, size_bytes }`.
 *
 * What a sandbox model returns, and what the job stores, is the
 * INTERNAL shape `StoredResult<slug>`: the same object with each SignedFile replaced by
 * a placeholder `{ file_key: "<key of SandboxOutput.files>" }`. The read path turns the
 * stored shape into the public one with `replaceFileRefs(result, sign)`; validate with
 * these schemas only after that swap.
 */
export const resultSchemas: Record<InferenceSlug, z.ZodMiniType> = await loadEvery(RESULT_SLUGS, loadResultSchema);

/** Public result type per endpoint: what its result schema parses to. */
export type InferenceResults = {
  [Slug in InferenceSlug]: z.output<Awaited<ReturnType<(typeof RESULT_SCHEMA_LOADERS)[Slug]>>>;
};

/** Stored (internal) result type per endpoint: files are `{ file_key }` placeholders. */
export type StoredResult<Slug extends InferenceSlug> = WithFileRefs<InferenceResults[Slug]>;

export { SignedFile } from './common.js';
export type { WithFileRefs } from './file-refs.js';
export { fileRefKeys, replaceFileRefs } from './file-refs.js';
