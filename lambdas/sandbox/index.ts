import { createHash } from 'node:crypto';
import { CATALOGUE } from '../domain/catalogue/catalogue.js';
import { loadEvery } from '../domain/kernel/load-once.js';
import { exampleParams } from '../schemas/params/examples.js';
import { loadSandboxModel, SANDBOX_SLUGS } from './load.js';
import type { InferenceSlug, SandboxAsset, SandboxModel, SandboxRequest } from './types.js';

/** Every sandbox model at once, for tests; the backend loads only the one it runs (`loadSandboxModel`). */
export const sandboxModels: Record<InferenceSlug, SandboxModel> = await loadEvery(SANDBOX_SLUGS, loadSandboxModel);

const SAMPLE_CONTENT_TYPES: Readonly<Record<string, string>> = {
  image: 'image/jpeg',
  images: 'image/jpeg',
  document: 'application/pdf',
  audio: 'audio/wav',
  video: 'video/mp4',
};

/**
 * A complete, valid request for `slug` without a client: example parameters and the
 * minimum number of synthetic assets. For payloads that need no real job, such as the
 * webhook test event.
 */
export function sampleSandboxRequest(slug: InferenceSlug, jobId = 'job_SampLe1111'): SandboxRequest {
  const endpoint = CATALOGUE[slug];
  const count = endpoint.inputKind === 'json' ? 0 : endpoint.minAssets;
  const contentType = SAMPLE_CONTENT_TYPES[endpoint.inputKind] ?? 'application/octet-stream';
  const extension = contentType.split('/')[1] ?? 'bin';
  const assets: SandboxAsset[] = Array.from({ length: count }, (_, index) => ({
    index,
    filename: `sample-${index + 1}.${extension}`,
    contentType,
    sizeBytes: 250_000,
    sha256: createHash('sha256').update(`${slug}:sample:${index}`).digest('hex'),
  }));
  return { slug, jobId, params: exampleParams[slug], assets, scenario: null };
}
