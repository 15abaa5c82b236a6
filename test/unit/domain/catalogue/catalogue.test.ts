import { describe, expect, it } from 'vitest';
import { CATALOGUE } from '../../../../lambdas/domain/catalogue/catalogue.js';
import { INFERENCE_PARAM_SLUGS, loadParamsSchema } from '../../../../lambdas/schemas/params/load.js';

const PRIVATE_URL = 'http://127.0.0.1/logo.png';

/** Every field of an endpoint's parameters that refuses a private URL as `url_not_public`. */
async function urlFieldsOf(slug: (typeof INFERENCE_PARAM_SLUGS)[number]): Promise<string[]> {
  const schema = await loadParamsSchema(slug);
  const fields = Object.keys(schema._zod.def.shape);
  return fields.filter((field) => {
    const parsed = schema.safeParse({ [field]: PRIVATE_URL });
    return (
      !parsed.success &&
      parsed.error.issues.some(
        (issue) =>
          issue.path[0] === field &&
          (issue as { params?: { error_code?: string } }).params?.error_code === 'url_not_public',
      )
    );
  });
}

describe("the catalogue's parameter refusals", () => {
  it('declare url_not_public for exactly the endpoints whose parameters fetch a client-supplied URL', async () => {
    const fetching: string[] = [];
    for (const slug of INFERENCE_PARAM_SLUGS) if ((await urlFieldsOf(slug)).length > 0) fetching.push(slug);
    const declared = INFERENCE_PARAM_SLUGS.filter((slug) => CATALOGUE[slug].paramErrors.includes('url_not_public'));
    expect(fetching).toEqual(['render.background', 'render.plate']);
    expect(declared).toEqual(fetching);
  });
});
