import { ERROR_CODES, type ErrorCode } from '../domain/kernel/errors.js';
import { escapeHtml } from '../http/html.js';

/** The page every `doc_url` points at, generated from the one error table. */
export function errorPage(code: ErrorCode): string {
  const definition = ERROR_CODES[code];
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(code)}</title><style>body{font-family:system-ui,sans-serif;max-width:44rem;margin:3rem auto;padding:0 1rem}code{background:#f4f4f4;padding:0 .2rem}</style></head><body><p><a href="../">Documentation</a></p><h1>${escapeHtml(code)}</h1><p>HTTP ${definition.status} · type <code>${definition.type}</code></p><p>${escapeHtml(definition.message)}</p><p>Clients branch on <code>type</code>; a code they do not know is treated as its type.</p></body></html>`;
}
