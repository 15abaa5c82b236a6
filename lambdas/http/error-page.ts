import { ERROR_CODES, type ErrorCode } from '../domain/kernel/errors.js';
import { escapeHtml } from './html.js';

/** The page every `doc_url` points at, generated from the one error table (served by its API route, so it stands on its own). */
export function errorPage(code: ErrorCode): string {
  const definition = ERROR_CODES[code];
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(code)} · Automotive Inference</title><link rel="icon" href="/docs/assets/favicon.svg" type="image/svg+xml"><style>body{font-family:system-ui,sans-serif;max-width:44rem;margin:3rem auto;padding:0 1rem;color:#1b1f24;line-height:1.55}a{color:#0b5cad}code{background:#f4f4f4;padding:0 .2rem}</style></head><body><p><a href="/docs/">Documentation</a> › <a href="/docs/guides/errors">Errors</a></p><h1>${escapeHtml(code)}</h1><p>HTTP ${definition.status} · type <code>${definition.type}</code></p><p>${escapeHtml(definition.message)}</p><p>Clients branch on <code>type</code>; a code they do not know is treated as its type. The error's <code>message</code> says what to change, and <code>param</code> names the offending parameter when there is one.</p></body></html>`;
}
