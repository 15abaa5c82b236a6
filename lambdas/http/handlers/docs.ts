import { ApiError, ERROR_CODES, type ErrorCode } from '../../domain/kernel/errors.js';
import { errorPage } from '../html.js';
import { implement } from '../implement.js';
import { servedOpenApiDocument } from '../openapi-document.js';
import * as internal from '../routes/internal.js';

// The API's own documents: the OpenAPI document and the page of every error code.

/** `GET /v1/openapi.json`: the document site/openapi.ts generates from the route definitions, generated ahead of time (openapi-document.ts). */
export const getOpenApi = implement(internal.getOpenApi, async () => ({ status: 200, body: servedOpenApiDocument() }));

/** `GET /docs/errors/{code}`: the page every `doc_url` points at. */
export const getErrorDoc = implement(internal.getErrorDoc, async ({ params }) => {
  const code = params.code;
  if (!Object.hasOwn(ERROR_CODES, code))
    throw new ApiError('resource_not_found', 'code', `No documentation for error code ${code}.`);
  return { status: 200, body: errorPage(code as ErrorCode), contentType: 'text/html; charset=utf-8' };
});
