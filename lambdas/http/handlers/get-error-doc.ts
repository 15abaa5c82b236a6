import { ApiError, ERROR_CODES, type ErrorCode } from '../../domain/kernel/errors.js';
import { errorPage } from '../error-page.js';
import { implement } from '../implement.js';
import { getErrorDoc } from '../routes/internal.js';

/** `GET /docs/errors/{code}`: the page every `doc_url` points at. */
export const handler = implement(getErrorDoc, async ({ params }) => {
  const code = params.code;
  if (!Object.hasOwn(ERROR_CODES, code)) throw new ApiError('resource_not_found', 'code', `No documentation for error code ${code}.`);
  return { status: 200, body: errorPage(code as ErrorCode), contentType: 'text/html; charset=utf-8' };
});
