import * as z from 'zod/mini';
import { ApiError, ERROR_CODES, type ErrorCode } from '../../../domain/kernel/errors.js';
import { errorPage } from '../../html.js';
import { implement } from '../../implement.js';
import { defineRoute } from '../define.js';

export const route = defineRoute({
  module: import.meta.url,
  id: 'get-error-doc',
  method: 'GET',
  path: '/docs/errors/{code}',
  summary: 'Documentation page of an error code',
  tag: 'Internal',
  auth: 'none',
  middleware: [],
  params: z.object({ code: z.string().check(z.regex(/^[a-z_]{1,64}$/)) }),
  notFound: 'resource_not_found',
  responses: { 200: { description: 'an HTML page', contentType: 'text/html' } },
  errors: [],
  access: { table: 'none' },
  timeoutSeconds: 10,
  maxBodyBytes: 0,
});

/** `GET /docs/errors/{code}`: the page every `doc_url` points at. */
export const handler = implement(route, async ({ params }) => {
  const code = params.code;
  if (!Object.hasOwn(ERROR_CODES, code))
    throw new ApiError('resource_not_found', 'code', `No documentation for error code ${code}.`);
  return { status: 200, body: errorPage(code as ErrorCode), contentType: 'text/html; charset=utf-8' };
});
