import { implement } from '../implement.js';
import { buildOpenApiDocument } from '../openapi.js';
import { getOpenApi } from '../routes/internal.js';

let document: Record<string, unknown> | undefined;

/** `GET /v1/openapi.json`: generated from the route definitions and zod schemas, once per cold start. */
export const handler = implement(getOpenApi, async () => {
  document ??= buildOpenApiDocument();
  return { status: 200, body: document };
});
