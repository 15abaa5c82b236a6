export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A small standalone HTML page (the local runtime's stand-in provider pages). `body` is trusted markup. */
export function htmlPage<S extends number = 200>(title: string, body: string, status: S = 200 as S): { status: S; body: string; contentType: string } {
  const html = `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem}button{font-size:1.1rem;padding:.5rem 1.5rem}.note{color:#666}</style></head><body>${body}</body></html>`;
  return { status, body: html, contentType: 'text/html; charset=utf-8' };
}
