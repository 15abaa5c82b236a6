import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ERROR_CODES, type ErrorCode } from '../lambdas/domain/kernel/errors.js';
import { errorPage, escapeHtml } from '../lambdas/http/html.js';
import { SAMPLES_DIR } from './endpoint-examples.js';
import { ENDPOINTS_INDEX, endpointPageOf, endpointPages } from './endpoint-pages.js';
import { DOCS_DIR, type Guide, guides } from './guides.js';
import { guideHtml, guideSections } from './markdown.js';
import { buildOpenApiDocument } from './openapi.js';
import { referenceHtml, SCHEMAS_PAGE, schemasHtml } from './reference.js';

export interface SiteFile {
  contentType: string;
  body: string | Buffer;
}

const HTML = 'text/html; charset=utf-8';
const ASSETS = join(import.meta.dirname, 'assets');
const SITE_NAME = 'Automotive Inference';
/** The base URL the guides' examples are written against (`BASE=…` in the quickstart); the site shows its own instead. */
const EXAMPLE_BASE_URL = 'http://localhost:3000';

/** What every page's head carries: the favicon, the stylesheet and the site's script (no inline script: the pages' CSP allows none). */
function head(title: string): string {
  return `<meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)} · ${SITE_NAME}</title>
<link rel="icon" href="/docs/assets/favicon.svg" type="image/svg+xml"><link rel="stylesheet" href="/docs/assets/site.css"><script src="/docs/assets/site.js" defer></script>`;
}

function topBar(): string {
  const menuButton =
    '<button type="button" class="menu-button" id="docs-menu-button" aria-controls="docs-menu" aria-expanded="false">Menu</button>';
  return `<header class="top"><a class="brand" href="/docs/"><img src="/docs/assets/favicon.svg" alt="" width="24" height="24">${SITE_NAME}<span class="wide-only">&nbsp;documentation</span></a>${menuButton}
<div class="search" role="search"><input type="search" id="docs-search" placeholder="Search guides and reference (press /)" aria-label="Search the documentation" autocomplete="off" aria-controls="docs-search-results"><ol id="docs-search-results" role="listbox" hidden></ol></div></header>`;
}

/** The menu, by section; the page being shown is marked `aria-current="page"`. */
function menu(all: readonly Guide[], current: string): string {
  const link = (href: string, label: string) =>
    `<a href="${href}"${href === current ? ' aria-current="page"' : ''}>${escapeHtml(label)}</a>`;
  const sections = [...new Set(all.map((guide) => guide.section))];
  // the endpoint pages are reached from their index, which sits with the endpoints' guide
  const extra = (section: string) => (section === 'Endpoints' ? link(ENDPOINTS_INDEX, 'Examples by endpoint') : '');
  return `<nav class="menu" id="docs-menu" aria-label="Documentation">${link('/docs', 'Home')}${link('/docs/reference', 'API reference')}${sections
    .map(
      (section) =>
        `<h2>${escapeHtml(section)}</h2>${all
          .filter((guide) => guide.section === section)
          .map((guide) => link(`/docs/guides/${guide.slug}`, guide.title))
          .join('')}${extra(section)}`,
    )
    .join('')}</nav>`;
}

function page(all: readonly Guide[], current: string, title: string, content: string): string {
  return `<!doctype html><html lang="en"><head>${head(title)}</head><body>${topBar()}<div class="layout">${menu(all, current)}<main>${content}</main></div></body></html>`;
}

function home(all: readonly Guide[]): string {
  const card = (href: string, title: string, text: string) =>
    `<a href="${href}"><strong>${escapeHtml(title)}</strong>${escapeHtml(text)}</a>`;
  const sections = [...new Set(all.map((guide) => guide.section))];
  return `<h1>${SITE_NAME} API</h1>
<p>Vehicle, plate, VIN, damage, tire, parts, pricing, rendering and eight-stage inspections as an HTTP API with asynchronous jobs, credits and webhooks.</p>
<div class="cards">${card('/docs/guides/quickstart', 'Quickstart', 'Your first job, poll and webhook in five minutes.')}${card('/docs/reference', 'API reference', 'Every route, parameter and answer, from the OpenAPI document.')}${card('/docs/guides/test-mode', 'Test mode', 'Deterministic results and every failure on demand.')}${card('/docs/guides/errors', 'Errors', 'The envelope, every type and code.')}</div>
<h2>Guides</h2><div class="sections">${sections
    .map(
      (section) =>
        `<div><h3>${escapeHtml(section)}</h3><ul>${all
          .filter((guide) => guide.section === section)
          .map((guide) => `<li><a href="/docs/guides/${guide.slug}">${escapeHtml(guide.title)}</a></li>`)
          .join('')}</ul></div>`,
    )
    .join('')}</div>
<p>The OpenAPI 3.1 document: <a href="/docs/reference/openapi.json">/docs/reference/openapi.json</a>.</p>`;
}

interface SearchEntry {
  /** kind: a guide's section, an API operation, an error code */
  k: 'guide' | 'operation' | 'error';
  /** title (the guide, the operation's summary, the code) */
  t: string;
  /** the section heading within the guide, or the operation's method and path */
  s: string;
  u: string;
  /** the text searched and quoted */
  x: string;
}

type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;
type Operation = { operationId?: string; summary?: string; description?: string; tags?: string[] };

/** What the search box looks through: every section of every guide, every operation of the reference, every error code. */
function searchIndex(all: readonly Guide[], document: OpenApiDocument): SearchEntry[] {
  const entries: SearchEntry[] = [];
  for (const guide of all) {
    for (const section of guideSections(guide.markdown)) {
      entries.push({
        k: 'guide',
        t: guide.title,
        s: section.anchor ? section.heading : '',
        u: `/docs/guides/${guide.slug}${section.anchor ? `#${section.anchor}` : ''}`,
        x: section.text,
      });
    }
  }
  for (const [path, methods] of Object.entries(
    (document as { paths: Record<string, Record<string, Operation>> }).paths,
  )) {
    for (const [method, operation] of Object.entries(methods)) {
      if (!operation.operationId) continue;
      entries.push({
        k: 'operation',
        t: operation.summary ?? operation.operationId,
        s: `${method.toUpperCase()} ${path}`,
        u: `/docs/reference#operation/${operation.operationId}`,
        x: [operation.description ?? '', ...(operation.tags ?? [])].join(' ').replace(/\s+/g, ' ').trim(),
      });
    }
  }
  for (const code of Object.keys(ERROR_CODES) as ErrorCode[]) {
    const definition = ERROR_CODES[code];
    entries.push({
      k: 'error',
      t: code,
      s: `${definition.status} ${definition.type}`,
      u: `/docs/errors/${code}`,
      x: definition.message,
    });
  }
  return entries;
}

/**
 * The documentation site, as files by URL path: the home page, every guide (each Markdown file
 * of docs/, plus the test-mode and errors pages generated from the catalogue and the error
 * table), the API reference rendered to HTML from the generated OpenAPI document, one page per
 * endpoint with a real call and its answer on a sample (site/endpoint-pages.ts), the search
 * index, the assets, and one page per error code. `npm start` serves it under /docs; `npm run
 * docs:build` writes it for S3 + CloudFront (lib/web-site.ts).
 */
export function buildDocsSite(options: { serverUrl: string; docsDir?: string }): Map<string, SiteFile> {
  const all = guides(options.docsDir ?? DOCS_DIR);
  const slugs = new Set(all.map((guide) => guide.slug));
  const openApi = buildOpenApiDocument(options.serverUrl);
  const site = new Map<string, SiteFile>();
  site.set('/docs', { contentType: HTML, body: page(all, '/docs', 'Documentation', home(all)) });
  for (const guide of all) {
    // the guides' examples name the service the site documents, not the address they were written against
    const markdown = guide.markdown.replaceAll(EXAMPLE_BASE_URL, options.serverUrl.replace(/\/$/, ''));
    site.set(`/docs/guides/${guide.slug}`, {
      contentType: HTML,
      body: page(all, `/docs/guides/${guide.slug}`, guide.title, guideHtml(markdown, slugs)),
    });
  }
  site.set('/docs/reference', {
    contentType: HTML,
    body: page(all, '/docs/reference', 'API reference', referenceHtml(openApi, slugs, endpointPageOf)),
  });
  site.set(SCHEMAS_PAGE, {
    contentType: HTML,
    body: page(all, '/docs/reference', 'Schemas', schemasHtml(openApi, slugs)),
  });
  for (const [path, { title, html }] of endpointPages(options.serverUrl))
    site.set(path, { contentType: HTML, body: page(all, ENDPOINTS_INDEX, title, html) });
  for (const sample of readdirSync(SAMPLES_DIR).filter((name) => name.endsWith('.jpg')))
    site.set(`/docs/assets/samples/${sample}`, {
      contentType: 'image/jpeg',
      body: readFileSync(join(SAMPLES_DIR, sample)),
    });
  site.set('/docs/reference/openapi.json', { contentType: 'application/json', body: JSON.stringify(openApi) });
  site.set('/docs/assets/search-index.json', {
    contentType: 'application/json',
    body: JSON.stringify(searchIndex(all, openApi)),
  });
  site.set('/docs/assets/site.js', {
    contentType: 'text/javascript; charset=utf-8',
    body: readFileSync(join(ASSETS, 'site.js')),
  });
  site.set('/docs/assets/site.css', {
    contentType: 'text/css; charset=utf-8',
    body: readFileSync(join(ASSETS, 'site.css')),
  });
  site.set('/docs/assets/favicon.svg', {
    contentType: 'image/svg+xml',
    body: readFileSync(join(ASSETS, 'favicon.svg')),
  });
  for (const code of Object.keys(ERROR_CODES) as ErrorCode[])
    site.set(`/docs/errors/${code}`, { contentType: HTML, body: errorPage(code) });
  return site;
}
