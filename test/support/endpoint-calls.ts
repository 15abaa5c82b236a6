import { CATALOGUE, ENDPOINT_SLUGS, type InferenceSlug } from '../../lambdas/domain/catalogue/catalogue.js';
import { type ApiResponse, call, eventually, formWith, imageFile } from './http.js';
import { uploadFile } from './uploads.js';

export const INFERENCE_SLUGS = ENDPOINT_SLUGS.filter((slug): slug is InferenceSlug => slug !== 'inspections');

const JSON_PARAMS: Partial<Record<InferenceSlug, Record<string, unknown>>> = {
  'pricing.vehicle': { vin: '1HGCM82633A004352', mileage_km: 84000 },
  'pricing.repair': { damages: [{ part: 'front_bumper', type: 'dent' }], parts: [{ part: 'hood', action: 'repair' }] },
};

/** Submits one realistic call for the slug, through whichever encoding the endpoint takes. */
export async function submit(
  baseUrl: string,
  slug: InferenceSlug,
  key: string,
  headers: Record<string, string> = {},
  seed: string = slug,
): Promise<ApiResponse> {
  const endpoint = CATALOGUE[slug];
  const wait = endpoint.acceptsWait ? '?wait=true' : '';
  if (endpoint.inputKind === 'json')
    return call(baseUrl, 'POST', `/v1/${slug}${wait}`, { key, json: JSON_PARAMS[slug], headers });
  if (endpoint.requiresJsonEncoding) {
    const count = Math.max(endpoint.minAssets, slug === 'render.video' ? 3 : 1);
    const type = endpoint.inputKind === 'video' ? 'video/mp4' : 'image/jpeg';
    const refs = await Promise.all(
      Array.from({ length: count }, (_, i) =>
        uploadFile(
          baseUrl,
          key,
          type,
          Buffer.alloc(5000 + i, `${seed}${i}`),
          `frame-${i}.${type === 'video/mp4' ? 'mp4' : 'jpg'}`,
        ),
      ),
    );
    return call(baseUrl, 'POST', `/v1/${slug}`, {
      key,
      json: endpoint.maxAssets > 1 ? { input_refs: refs } : { input_ref: refs[0] },
      headers,
    });
  }
  const files =
    slug === 'render.background'
      ? [imageFile('a'), imageFile('b'), imageFile('c')]
      : [
          endpoint.inputKind === 'audio'
            ? new Blob([Buffer.alloc(3000, seed)], { type: 'audio/wav' })
            : imageFile(seed),
        ];
  return call(baseUrl, 'POST', `/v1/${slug}${wait}`, {
    key,
    form: formWith(endpoint.fileField === 'images' ? 'images' : endpoint.fileField!, files),
    headers,
  });
}

export async function settled(baseUrl: string, key: string, id: string): Promise<ApiResponse> {
  return eventually(async () => {
    const r = await call(baseUrl, 'GET', `/v1/jobs/${id}`, { key });
    return ['succeeded', 'failed', 'expired', 'canceled'].includes(r.body.status) ? r : null;
  }, 30_000);
}
