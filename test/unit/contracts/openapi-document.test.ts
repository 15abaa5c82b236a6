import { readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { OPENAPI_DOCUMENT_FILE, servedOpenApiDocument } from '../../../lambdas/http/openapi-document.js';
import { buildOpenApiDocument } from '../../../site/openapi.js';

/**
 * `GET /v1/openapi.json` serves a document generated ahead of time, so its Lambda bundles neither
 * the route schemas nor the generator. It must never drift from the route definitions:
 * regenerate it with `WRITE_OPENAPI=1 npx vitest run test/unit/contracts/openapi-document.test.ts`.
 */
const FILE = new URL(`../../../lambdas/http/${OPENAPI_DOCUMENT_FILE}`, import.meta.url);

describe('the served OpenAPI document', () => {
  it('is byte for byte the document the route definitions generate', () => {
    const generated = JSON.stringify(buildOpenApiDocument());
    if (process.env.WRITE_OPENAPI === '1')
      writeFileSync(
        FILE,
        `${JSON.stringify({ gzip_base64: gzipSync(generated, { level: 9 }).toString('base64') }, null, 2)}\n`,
      );
    const stored = JSON.parse(readFileSync(FILE, 'utf8')) as { gzip_base64: string };
    const stale = 'stale: regenerate with WRITE_OPENAPI=1 npx vitest run test/unit/contracts/openapi-document.test.ts';
    expect(gunzipSync(Buffer.from(stored.gzip_base64, 'base64')).toString('utf8'), stale).toBe(generated);
    // what the handler answers is that document (module contents were read before any rewrite above)
    if (process.env.WRITE_OPENAPI !== '1') expect(JSON.stringify(servedOpenApiDocument())).toBe(generated);
  });
});
