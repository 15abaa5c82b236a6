import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENDPOINT_SLUGS, type InferenceSlug } from '../../../lambdas/domain/catalogue/catalogue.js';
import { sandboxModels } from '../../../lambdas/sandbox/index.js';
import { loadParamsSchema } from '../../../lambdas/schemas/params/load.js';
import {
  contentTypeOf,
  ENDPOINT_EXAMPLES,
  type EndpointExample,
  SAMPLES_DIR,
  storedExample,
} from '../../../site/endpoint-examples.js';

/**
 * The endpoint pages show answers `npm run docs:examples` stored from a running service
 * (site/examples/). They are never typed by hand, and this proves they are still true: each
 * stored result is what the fixture backend answers today on the same samples and parameters.
 */

/** A produced file as the model names it (`{file_key}`) or as the answer signs it (`{url, …}`): the same file. */
function filesAsMarks(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(filesAsMarks);
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    if ('file_key' in record || ('url' in record && 'expires_at' in record)) return '<file>';
    return Object.fromEntries(Object.entries(record).map(([key, item]) => [key, filesAsMarks(item)]));
  }
  return value;
}

async function fixtureAnswer(example: EndpointExample & { slug: InferenceSlug }): Promise<unknown> {
  const params = (await loadParamsSchema(example.slug)).parse(example.fields) as Record<string, unknown>;
  const output = sandboxModels[example.slug]({
    slug: example.slug,
    jobId: 'job_SampLe1111',
    params,
    assets: example.samples.map((sample, index) => {
      const bytes = readFileSync(join(SAMPLES_DIR, sample));
      return {
        index,
        filename: sample,
        contentType: contentTypeOf(sample),
        sizeBytes: bytes.length,
        sha256: createHash('sha256').update(bytes).digest('hex'),
      };
    }),
    scenario: null,
  });
  return filesAsMarks(output.result);
}

describe('the endpoint pages’ stored answers', () => {
  it('every endpoint has one, a test-mode job that succeeded on its sample', () => {
    expect(ENDPOINT_EXAMPLES.map((example) => example.slug)).toEqual([...ENDPOINT_SLUGS]);
    for (const { slug } of ENDPOINT_EXAMPLES) {
      const stored = storedExample(slug);
      expect(stored, `site/examples/${slug}.json: run npm run docs:examples`).not.toBeNull();
      expect(stored!.job).toMatchObject({ endpoint: slug, status: 'succeeded', livemode: false });
      expect(String(stored!.job.model_version)).toMatch(/-fixture$/);
    }
  });

  // an inspection's result gathers its eight stages' jobs; each of those endpoints is checked on its own
  it.each(
    ENDPOINT_EXAMPLES.filter(
      (example): example is EndpointExample & { slug: InferenceSlug } => example.slug !== 'inspections',
    ),
  )('$slug: the stored result is what the fixture backend answers on the sample today', async (example) => {
    expect(filesAsMarks(storedExample(example.slug)!.job.result)).toEqual(await fixtureAnswer(example));
  });
});
