import * as z from 'zod/mini';
import { implement } from '../../implement.js';
import { servedOpenApiDocument } from '../../openapi-document.js';
import { defineRoute } from '../define.js';

export const route = defineRoute({
  module: import.meta.url,
  id: 'get-openapi',
  method: 'GET',
  path: '/v1/openapi.json',
  summary: 'This OpenAPI 3.1 document',
  tag: 'Internal',
  auth: 'none',
  middleware: [],
  responses: { 200: { description: 'the OpenAPI document', schema: z.record(z.string(), z.unknown()) } },
  errors: [],
  // generated from code: no data access at all
  access: { table: 'none' },
  timeoutSeconds: 10,
  maxBodyBytes: 0,
});

/** `GET /v1/openapi.json`: the document site/openapi.ts generates from the route definitions, generated ahead of time (openapi-document.ts). */
export const handler = implement(route, async () => ({ status: 200, body: servedOpenApiDocument() }));
