import { gunzipSync } from 'node:zlib';
import stored from './generated/openapi.json' with { type: 'json' };

/** Where the pre-generated document lives, relative to this module (test/unit/contracts/openapi-document.test.ts writes and checks it). */
export const OPENAPI_DOCUMENT_FILE = 'generated/openapi.json';

let document: Record<string, unknown> | undefined;

/**
 * The OpenAPI document as site/openapi.ts generates it from the route definitions, generated ahead of
 * time and stored gzip-compressed (294 KB of JSON, 35 KB compressed): a Lambda serving it bundles
 * neither zod's schemas of every route nor the generator. A test keeps it equal to the generated one.
 */
export function servedOpenApiDocument(): Record<string, unknown> {
  document ??= JSON.parse(gunzipSync(Buffer.from(stored.gzip_base64, 'base64')).toString('utf8')) as Record<
    string,
    unknown
  >;
  return document;
}
