import { ApiError, ERROR_CODES, type ErrorCode } from '../../domain/kernel/errors.js';
import { escapeHtml } from '../html.js';
import { implement } from '../implement.js';
import { getErrorDoc } from '../routes/internal.js';

/** `GET /docs/errors/{code}`: the page every `doc_url` points at. */
export const handler = implement(getErrorDoc, async ({ params }) => {
  const code = params.code;
  if (!Object.hasOwn(ERROR_CODES, code)) throw new ApiError('resource_not_found', 'code', `No documentation for error code ${code}.`);
  const definition = ERROR_CODES[code as ErrorCode];
  const body = `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(code)}</title></head><body><h1>${escapeHtml(code)}</h1><p>HTTP ${definition.status} · type <code>${definition.type}</code></p><p>${escapeHtml(definition.message)}</p></body></html>`;
  return { status: 200, body, contentType: 'text/html; charset=utf-8' };
});
