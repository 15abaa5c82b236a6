import { lambdaEntry } from '../lambda-entry.js';
import type { Services } from '../../domain/ports/services.js';
import { ApiError, ERROR_CODES, type ErrorCode } from '../../domain/kernel/errors.js';
import { httpHandler, type HttpHandler } from '../handler.js';
import { escapeHtml } from '../html.js';

/** `GET /docs/errors/{code}`: the page every `doc_url` points at. */
export function getErrorDocHandler(services: Services): HttpHandler {
  return httpHandler(services, async (request) => {
    const code = request.pathParameters.code ?? '';
    if (!Object.hasOwn(ERROR_CODES, code)) throw new ApiError('resource_not_found', 'code', `No documentation for error code ${code}.`);
    const definition = ERROR_CODES[code as ErrorCode];
    const body = `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(code)}</title></head><body><h1>${escapeHtml(code)}</h1><p>HTTP ${definition.status} · type <code>${definition.type}</code></p><p>${escapeHtml(definition.message)}</p></body></html>`;
    return { status: 200, body, contentType: 'text/html; charset=utf-8' };
  });
}

export const handler = lambdaEntry((container) => getErrorDocHandler(container));
