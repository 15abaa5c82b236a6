import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generatedEndpointLoaders, writeEndpointLoaders } from '../../../tools/endpoint-loaders.js';

const ROOT = new URL('../../../', import.meta.url);

/**
 * The three per-endpoint loaders (parameter schemas, result schemas, sandbox models) are generated
 * from the endpoint catalogue: regenerate them with
 * `WRITE_ENDPOINT_LOADERS=1 npx vitest run test/unit/contracts/endpoint-loaders.test.ts`.
 */
describe('the per-endpoint loaders', () => {
  if (process.env.WRITE_ENDPOINT_LOADERS === '1') writeEndpointLoaders(ROOT);

  it.each(generatedEndpointLoaders().map(({ file, contents }) => [file, contents]))(
    '%s is what the endpoint catalogue generates',
    (file, contents) => {
      expect(
        readFileSync(new URL(file, ROOT), 'utf8'),
        'stale: regenerate with WRITE_ENDPOINT_LOADERS=1 npx vitest run test/unit/contracts/endpoint-loaders.test.ts',
      ).toBe(contents);
    },
  );
});
