import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { Marked, type Tokens } from 'marked';
import { ERROR_CODES, type ErrorCode } from '../domain/kernel/errors.js';
import { escapeHtml } from '../http/html.js';
import { buildOpenApiDocument } from '../http/openapi.js';
import { errorPage } from './error-page.js';
import { GUIDES, guideMarkdown } from './guides.js';

export interface SiteFile {
  contentType: string;
  body: string | Buffer;
}

const HTML = 'text/html; charset=utf-8';
const PROJECT_ROOT = resolve(import.meta.dirname, '../..');

function layout(title: string, content: string): string {
  const nav = [
    `<a href="/docs/">Home</a>`,
    `<a href="/docs/reference">API reference</a>`,
    ...GUIDES.map((guide) => `<a href="/docs/guides/${guide.slug}">${escapeHtml(guide.title)}</a>`),
  ].join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)} · Automotive Inference</title>
<style>body{margin:0;font-family:system-ui,sans-serif;display:flex;color:#1b1f24}nav{width:16rem;min-height:100vh;background:#f6f8fa;padding:1.5rem 1rem;box-sizing:border-box}nav a{display:block;padding:.3rem 0;color:#0b5cad;text-decoration:none}main{max-width:52rem;padding:1.5rem 2.5rem;overflow-x:auto}pre{background:#f6f8fa;padding:1rem;overflow-x:auto}code{font-size:.92em}table{border-collapse:collapse}td,th{border:1px solid #d0d7de;padding:.3rem .6rem;text-align:left;vertical-align:top}</style></head>
<body><nav><strong>Automotive Inference</strong>${nav}</nav><main>${content}</main></body></html>`;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(text: string): string {
  return text
    .toLowerCase()
    .trim()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/**
 * A guide's Markdown as HTML, its headings carrying the ids GitHub gives them (a repeat gets
 * `-1`, `-2`…), so links written for the repository (`uploads.md#client-supplied-urls-ssrf`)
 * land on their section here too.
 */
function guideHtml(markdown: string): string {
  const seen = new Map<string, number>();
  const renderer = {
    heading(this: { parser: { parseInline(tokens: Tokens.Heading['tokens']): string } }, heading: Tokens.Heading): string {
      const base = anchorOf(heading.text);
      const repeats = seen.get(base) ?? 0;
      seen.set(base, repeats + 1);
      const id = repeats === 0 ? base : `${base}-${repeats}`;
      return `<h${heading.depth} id="${escapeHtml(id)}">${this.parser.parseInline(heading.tokens)}</h${heading.depth}>\n`;
    },
  };
  return new Marked({ renderer }).parse(markdown, { async: false });
}

/**
 * The documentation site, as files by URL path: the API reference rendered by Redoc from the
 * generated OpenAPI document, the guides rendered from docs/*.md (and the test-mode page from the
 * catalogue), and one page per error code. `npm start` serves it under /docs; `npm run
 * docs:build` writes it for S3 + CloudFront (lib/docs-site.ts).
 */
export function buildDocsSite(options: { serverUrl: string; docsDir?: string }): Map<string, SiteFile> {
  const docsDir = options.docsDir ?? join(PROJECT_ROOT, 'docs');
  const site = new Map<string, SiteFile>();
  const list = GUIDES.map((guide) => `<li><a href="/docs/guides/${guide.slug}">${escapeHtml(guide.title)}</a></li>`).join('');
  site.set('/docs', {
    contentType: HTML,
    body: layout(
      'Documentation',
      `<h1>Automotive Inference API</h1><p>Vehicle, plate, VIN, damage, tire, parts, pricing, rendering and eight-stage inspections as an HTTP API with asynchronous jobs, credits and webhooks.</p><p><a href="/docs/reference">API reference</a> · <a href="/docs/reference/openapi.json">OpenAPI document</a></p><h2>Guides</h2><ul>${list}</ul><h2>Errors</h2><ul>${Object.keys(
        ERROR_CODES,
      )
        .map((code) => `<li><a href="/docs/errors/${code}">${code}</a></li>`)
        .join('')}</ul>`,
    ),
  });
  for (const guide of GUIDES) {
    site.set(`/docs/guides/${guide.slug}`, { contentType: HTML, body: layout(guide.title, guideHtml(guideMarkdown(docsDir, guide))) });
  }
  site.set('/docs/reference', {
    contentType: HTML,
    body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>API reference · Automotive Inference</title></head><body><redoc spec-url="/docs/reference/openapi.json" hide-download-button="false"></redoc><script src="/docs/assets/redoc.standalone.js"></script></body></html>`,
  });
  site.set('/docs/reference/openapi.json', { contentType: 'application/json', body: JSON.stringify(buildOpenApiDocument(options.serverUrl)) });
  const redoc = createRequire(import.meta.url).resolve('redoc/bundles/redoc.standalone.js');
  site.set('/docs/assets/redoc.standalone.js', { contentType: 'text/javascript; charset=utf-8', body: readFileSync(redoc) });
  for (const code of Object.keys(ERROR_CODES) as ErrorCode[]) site.set(`/docs/errors/${code}`, { contentType: HTML, body: errorPage(code) });
  return site;
}
