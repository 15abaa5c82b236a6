import { ERROR_CODES, type ErrorCode } from '../domain/kernel/errors.js';

// The HTML the service writes itself: the error code pages and the local stand-in provider pages.

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A small standalone HTML page (the local runtime's stand-in provider pages). `body` is trusted markup. */
export function htmlPage<S extends number = 200>(
  title: string,
  body: string,
  status: S = 200 as S,
): { status: S; body: string; contentType: string } {
  const html = `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem}button{font-size:1.1rem;padding:.5rem 1.5rem}.note{color:#666}</style></head><body>${body}</body></html>`;
  return { status, body: html, contentType: 'text/html; charset=utf-8' };
}

/** The page every `doc_url` points at, generated from the one error table (served by its API route, so it stands on its own). */
export function errorPage(code: ErrorCode): string {
  const definition = ERROR_CODES[code];
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(code)} · Automotive Inference</title><link rel="icon" href="/docs/assets/favicon.svg" type="image/svg+xml"><style>body{font-family:system-ui,sans-serif;max-width:44rem;margin:3rem auto;padding:0 1rem;color:#1b1f24;line-height:1.55}a{color:#0b5cad}code{background:#f4f4f4;padding:0 .2rem}</style></head><body><p><a href="/docs/">Documentation</a> › <a href="/docs/guides/errors">Errors</a></p><h1>${escapeHtml(code)}</h1><p>HTTP ${definition.status} · type <code>${definition.type}</code></p><p>${escapeHtml(definition.message)}</p><p>Clients branch on <code>type</code>; a code they do not know is treated as its type. The error's <code>message</code> says what to change, and <code>param</code> names the offending parameter when there is one.</p></body></html>`;
}
