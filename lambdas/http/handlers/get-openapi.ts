import { implement } from '../implement.js';
import { servedOpenApiDocument } from '../openapi-document.js';
import { getOpenApi } from '../routes/internal.js';

/** `GET /v1/openapi.json`: the document openapi.ts generates from the route definitions, generated ahead of time (openapi-document.ts). */
export const handler = implement(getOpenApi, async () => ({ status: 200, body: servedOpenApiDocument() }));
