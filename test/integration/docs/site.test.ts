import { mkdirSync, readdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE, ENDPOINT_SLUGS } from '../../../lambdas/domain/catalogue/catalogue.js';
import { ERROR_CODES } from '../../../lambdas/domain/kernel/errors.js';
import { escapeHtml } from '../../../lambdas/http/html.js';
import {
  clientExample,
  curlExample,
  ENDPOINT_EXAMPLES,
  endpointPagePath,
  storedExample,
} from '../../../site/endpoint-examples.js';
import { ENDPOINTS_INDEX } from '../../../site/endpoint-pages.js';
import { DOCS_DIR, guides } from '../../../site/guides.js';
import { buildDocsSite } from '../../../site/site.js';
import { HAS_CHROMIUM, launchChromium } from '../../support/browser.js';
import { sharedTestService } from '../../support/service.js';
import { forbiddenCitations } from '../../support/stands-alone.js';

const GUIDES = guides();
const svc = sharedTestService();

async function page(path: string): Promise<{ status: number; type: string | null; text: string }> {
  const response = await fetch(`${svc.baseUrl}${path}`);
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
}

describe('the documentation site at /docs', () => {
  it("every Markdown file of docs/ is a guide of the site, one page per concept; the maintainers' docs/internals/ are not on it", async () => {
    const files = readdirSync(DOCS_DIR).filter((name) => name.endsWith('.md'));
    expect(GUIDES.map((guide) => guide.file).filter(Boolean)).toEqual(expect.arrayContaining(files));
    const slugs = GUIDES.map((guide) => guide.slug);
    for (const slug of [
      'quickstart',
      'authentication',
      'jobs-and-credits',
      'wait',
      'uploads',
      'webhooks',
      'test-mode',
      'test-fixtures',
      'errors',
      'idempotency-and-rate-limits',
      'quotes',
      'deadlines',
      'spend-limits',
      'batches',
      'inspections',
      'data-retention',
      'client',
    ]) {
      expect(slugs).toContain(slug);
    }
    // how the service is built and run (architecture, deploy, operations…) is for maintainers, in the repository only
    const internalOnly = readdirSync(`${DOCS_DIR}/internals`).filter((name) => !files.includes(name));
    expect(internalOnly).toEqual(expect.arrayContaining(['architecture.md', 'deploy.md', 'operations.md']));
    for (const name of internalOnly) expect(slugs).not.toContain(name.replace(/\.\w+$/, ''));
    // every page sits in a section of the menu: none falls into "More"
    expect(GUIDES.filter((guide) => guide.section === 'More').map((guide) => guide.slug)).toEqual([]);
    const home = await page('/docs');
    expect(home.status).toBe(200);
    expect(home.type).toContain('text/html');
    expect(home.text).toContain('href="/docs/reference"');
    for (const guide of GUIDES) expect(home.text).toContain(`href="/docs/guides/${guide.slug}"`);
    expect((await page('/docs/')).status).toBe(200);
  });

  it('the error codes have a page of their own, not the home page: every code by type, with its status, linking its doc_url page', async () => {
    const home = await page('/docs');
    expect(home.text.match(/href="\/docs\/errors\//g) ?? []).toHaveLength(0);
    const errors = await page('/docs/guides/errors');
    for (const [code, definition] of Object.entries(ERROR_CODES)) {
      expect(errors.text).toMatch(
        new RegExp(`<a href="/docs/errors/${code}"><code>${code}</code></a></td>\\s*<td>${definition.status}</td>`),
      );
    }
  });

  it('every guide renders from its Markdown (quickstart, webhooks…)', async () => {
    for (const guide of GUIDES) {
      const rendered = await page(`/docs/guides/${guide.slug}`);
      expect(rendered.status, guide.slug).toBe(200);
      expect(rendered.text, guide.slug).toMatch(/<h1[^>]*>/);
    }
    expect((await page('/docs/guides/quickstart')).text).toContain('npm start');
    expect((await page('/docs/guides/webhooks')).text).toContain('constructEvent');
  });

  it('no page cites files outside the repository or shows implementer notes', async () => {
    for (const [path, file] of buildDocsSite({ serverUrl: svc.baseUrl })) {
      if (!file.contentType.startsWith('text/html')) continue;
      expect(forbiddenCitations(String(file.body).replaceAll('&#39;', "'")), path).toEqual([]);
    }
  });

  it('the test-mode page lists every endpoint with exactly the scenarios its catalogue entry supports', async () => {
    const text = (await page('/docs/guides/test-mode')).text;
    for (const slug of ENDPOINT_SLUGS) {
      const row = new RegExp(`<tr>\\s*<td><code>${slug.replace('.', '\\.')}</code></td>\\s*<td>(.*?)</td>`, 's').exec(
        text,
      );
      expect(row, slug).not.toBeNull();
      expect(
        [...row![1]!.matchAll(/<code>([a-z_]+)<\/code>/g)].map((m) => m[1]),
        slug,
      ).toEqual([...CATALOGUE[slug].scenarios]);
    }
  });

  it("the reference is HTML rendered from the same OpenAPI document the API serves: every operation at its anchor, each family described, the licence the product's, no script but the site's", async () => {
    const reference = await page('/docs/reference');
    const served = JSON.parse((await page('/docs/reference/openapi.json')).text);
    const api = JSON.parse((await page('/v1/openapi.json')).text);
    expect(served.paths).toEqual(api.paths);
    for (const [path, methods] of Object.entries(
      served.paths as Record<string, Record<string, { operationId: string }>>,
    ))
      for (const [method, operation] of Object.entries(methods)) {
        const section = new RegExp(
          `<section class="operation" id="operation/${operation.operationId}"><h3>[^<]+</h3>\\s*<p class="route"><span class="method method-${method}">${method.toUpperCase()}</span> <code>${path.replace(/[.{}]/g, '\\$&')}</code>`,
        );
        expect(reference.text, `${method} ${path}`).toMatch(section);
      }
    for (const tag of served.tags as Array<{ name: string; description: string }>)
      expect(reference.text).toContain(`<h2>${tag.name}</h2>`);
    expect(reference.text).toContain(`Licence: ${served.info.license.name}`);
    expect(reference.text).not.toContain('LicenseRef');
    expect(reference.text.match(/<script/g)).toEqual(['<script']);
    expect((await page('/docs/assets/redoc.standalone.js')).status).toBe(404);
  });

  it('each endpoint has a page with a real call (curl and the client) and its stored answer, linked from its operation in the reference and from the menu', async () => {
    const reference = (await page('/docs/reference')).text;
    const index = (await page(ENDPOINTS_INDEX)).text;
    expect(index).toContain(`href="${ENDPOINTS_INDEX}" aria-current="page"`);
    for (const example of ENDPOINT_EXAMPLES) {
      const path = endpointPagePath(example.slug);
      expect(index).toContain(`href="${path}"`);
      expect(reference).toContain(`<a href="${path}">`);
      const shown = await page(path);
      expect(shown.status, path).toBe(200);
      expect(shown.text).toContain(escapeHtml(curlExample(example)));
      expect(shown.text).toContain(escapeHtml(clientExample(example)));
      expect(shown.text).toContain(escapeHtml(JSON.stringify(storedExample(example.slug)!.job, null, 2)));
    }
    // a visual endpoint draws the answer's boxes on its sample
    const plates = (await page(endpointPagePath('plate.read'))).text;
    expect(plates).toMatch(
      /<image href="\/docs\/assets\/samples\/car\.jpg" width="800" height="600"\/><g [^>]*><rect x="294" y="413"/,
    );
    expect((await fetch(`${svc.baseUrl}/docs/assets/samples/car.jpg`)).headers.get('content-type')).toBe('image/jpeg');
  });

  it("the guides' examples name the service the site is served from, not the address they were written against", async () => {
    const quickstart = await page('/docs/guides/quickstart');
    expect(quickstart.text).toContain(`BASE=${svc.baseUrl}`);
    expect(quickstart.text).not.toContain('localhost:3000');
  });

  it('the search index, built with the site, covers every guide section, every operation and every error code', async () => {
    const index = JSON.parse((await page('/docs/assets/search-index.json')).text) as Array<{
      k: string;
      t: string;
      u: string;
    }>;
    for (const guide of GUIDES)
      expect(
        index.some((entry) => entry.u.startsWith(`/docs/guides/${guide.slug}`)),
        guide.slug,
      ).toBe(true);
    expect(index.some((entry) => entry.u === '/docs/guides/webhooks#retries')).toBe(true);
    expect(index.filter((entry) => entry.k === 'operation').length).toBeGreaterThan(50);
    expect(index.filter((entry) => entry.k === 'error').map((entry) => entry.t)).toEqual(Object.keys(ERROR_CODES));
  });
});

interface Visit {
  path: string;
  links: string[];
  ids: string[];
  foreign: string[];
  problems: string[];
}

/** Loads a page and records every link on it, every id, every request to another origin and every console error (CSP violations included). */
async function visit(tab: Page, origin: string, path: string, ready?: (tab: Page) => Promise<void>): Promise<Visit> {
  const foreign: string[] = [];
  const problems: string[] = [];
  const onRequest = (request: { url(): string }) => {
    const url = request.url();
    if (!/^(data|blob):/.test(url) && new URL(url).origin !== origin) foreign.push(url);
  };
  const onConsole = (message: { type(): string; text(): string }) => {
    if (message.type() === 'error') problems.push(message.text());
  };
  const onError = (error: Error) => problems.push(error.message);
  tab.on('request', onRequest);
  tab.on('console', onConsole);
  tab.on('pageerror', onError);
  try {
    const response = await tab.goto(`${origin}${path}`, { waitUntil: 'load' });
    if (response?.status() !== 200) problems.push(`status ${response?.status()}`);
    await ready?.(tab);
    const links = await tab.$$eval('a[href]', (anchors) =>
      anchors.map((anchor) => (anchor as unknown as { href: string }).href),
    );
    const ids = await tab.$$eval('[id]', (elements) => elements.map((element) => element.id));
    return { path, links, ids, foreign, problems };
  } finally {
    tab.off('request', onRequest);
    tab.off('console', onConsole);
    tab.off('pageerror', onError);
  }
}

function isErrorCodePage(path: string): boolean {
  return path.startsWith('/docs/errors/');
}

/** A page read without a browser: its status as served, and the links and ids of the HTML the site built for it. */
async function fetched(origin: string, path: string, html: string): Promise<Visit> {
  const response = await fetch(`${origin}${path}`);
  const served = await response.text();
  const problems = response.status === 200 ? [] : [`status ${response.status}`];
  if (served !== html) problems.push('served other HTML than the site built');
  const unescaped = (value: string) => value.replaceAll('&amp;', '&');
  const links = [...html.matchAll(/<a\s[^>]*href="([^"]*)"/g)].map(
    (match) => new URL(unescaped(match[1]!), `${origin}${path}`).href,
  );
  const ids = [...html.matchAll(/<[a-z][^>]*\sid="([^"]*)"/g)].map((match) => unescaped(match[1]!));
  return { path, links, ids, foreign: [], problems };
}

describe.skipIf(!HAS_CHROMIUM)('the documentation site in a real browser (chromium)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
    mkdirSync('test-artifacts', { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
  });

  const referenceShown = async (tab: Page) => {
    // one search box: the site's, which searches the guides and the reference alike
    expect(await tab.locator('input').evaluateAll((inputs) => inputs.length)).toBe(1);
    await tab.screenshot({ path: 'test-artifacts/docs-reference.png' });
  };

  it('link checker: every page loads without a request to another origin or a console error (CSP violations included), and every link and anchor leads somewhere', {
    timeout: 180_000,
  }, async () => {
    const origin = svc.baseUrl;
    const site = [...buildDocsSite({ serverUrl: origin })].filter(([, file]) =>
      file.contentType.startsWith('text/html'),
    );
    // an error code's page is errorPage()'s one template around the code's own escaped text: one stands for
    // them all in the browser (the same page policy, scripts and links); the others are fetched and their links read
    const [typicalErrorPage] = site.map(([path]) => path).filter(isErrorCodePage);
    const tab = await browser.newPage();
    const visits = new Map<string, Visit>();
    for (const [path, file] of site)
      visits.set(
        path,
        !isErrorCodePage(path) || path === typicalErrorPage
          ? await visit(tab, origin, path, path === '/docs/reference' ? referenceShown : undefined)
          : await fetched(origin, path, String(file.body)),
      );
    // the dashboard's shell runs under the same page policy
    visits.set('/dashboard', await visit(tab, origin, '/dashboard'));
    const broken: string[] = [];
    for (const { path, foreign, problems } of visits.values()) {
      for (const url of foreign) broken.push(`${path}: request to another origin: ${url}`);
      for (const problem of problems) broken.push(`${path}: ${problem}`);
    }
    const statusOf = new Map<string, number>();
    for (const { path, links } of visits.values()) {
      for (const href of links) {
        const url = new URL(href);
        if (url.origin !== origin) continue; // a link out (a licence, Stripe's docs) is not a request the page makes
        const target = url.pathname.replace(/\/$/, '') || '/';
        if (!visits.has(target) && !statusOf.has(target))
          statusOf.set(target, (await fetch(`${origin}${target}`)).status);
        const landing = visits.get(target);
        if (!landing && statusOf.get(target) !== 200) broken.push(`${path} → ${href}: ${statusOf.get(target)}`);
        const anchor = decodeURIComponent(url.hash.slice(1));
        if (anchor && landing && !landing.ids.includes(anchor)) broken.push(`${path} → ${href}: no such anchor`);
      }
    }
    expect(visits.size).toBeGreaterThan(GUIDES.length + Object.keys(ERROR_CODES).length);
    expect(broken).toEqual([]);
    await tab.close();
  });

  it('marks the current page in the menu, and the reference works under the page CSP', {
    timeout: 60_000,
  }, async () => {
    const tab = await browser.newPage();
    await tab.goto(`${svc.baseUrl}/docs/guides/webhooks`);
    expect(
      await tab.$$eval('nav.menu a[aria-current="page"]', (links) => links.map((link) => link.getAttribute('href'))),
    ).toEqual(['/docs/guides/webhooks']);
    await tab.screenshot({ path: 'test-artifacts/docs-guide.png' });
    await tab.goto(`${svc.baseUrl}/docs`);
    expect(
      await tab.$$eval('nav.menu a[aria-current="page"]', (links) => links.map((link) => link.getAttribute('href'))),
    ).toEqual(['/docs']);
    await tab.screenshot({ path: 'test-artifacts/docs-home.png' });
    await tab.goto(`${svc.baseUrl}/docs/reference/damage-detect#drawn`);
    await tab.screenshot({ path: 'test-artifacts/docs-endpoint.png' });
    await tab.close();
  });

  it('the search box finds guides, operations and error codes, and Enter opens the first hit', {
    timeout: 60_000,
  }, async () => {
    const tab = await browser.newPage();
    await tab.goto(`${svc.baseUrl}/docs`);
    const box = tab.locator('#docs-search');
    const hits = async (query: string) => {
      await box.fill(query);
      await tab.locator('#docs-search-results li').first().waitFor();
      const hrefs = await tab.$$eval('#docs-search-results li a', (links) =>
        links.map((link) => (link as unknown as { href: string }).href),
      );
      return hrefs.map((href) => new URL(href).pathname + new URL(href).hash);
    };
    expect((await hits('idempotency key'))[0]).toMatch(/^\/docs\/guides\/idempotency-and-rate-limits/);
    expect(await hits('plate.read')).toContain('/docs/reference#operation/infer-plate-read');
    expect(await hits('job_not_cancelable')).toContain('/docs/errors/job_not_cancelable');
    await hits('webhook retries');
    await tab.screenshot({ path: 'test-artifacts/docs-search.png' });
    await box.press('Enter');
    await tab.waitForURL(/\/docs\/guides\/webhooks/);
    await tab.close();
  });

  it('reads at 390 px: the menu folds behind a button, and nothing scrolls sideways', { timeout: 60_000 }, async () => {
    const tab = await browser.newPage({ viewport: { width: 390, height: 844 } });
    for (const path of ['/docs', '/docs/guides/results', '/docs/reference/plate-read', '/docs/guides/errors']) {
      await tab.goto(`${svc.baseUrl}${path}`);
      expect(await tab.evaluate('document.documentElement.scrollWidth'), path).toBeLessThanOrEqual(390);
      if (path === '/docs/reference/plate-read') {
        await tab.locator('#drawn').scrollIntoViewIfNeeded();
        await tab.screenshot({ path: 'test-artifacts/docs-endpoint-390.png' });
      }
    }
    const menu = tab.locator('#docs-menu');
    expect(await menu.isVisible()).toBe(false);
    await tab.screenshot({ path: 'test-artifacts/docs-390.png' });
    await tab.locator('#docs-menu-button').click();
    expect(await menu.isVisible()).toBe(true);
    expect(await tab.locator('#docs-menu a[aria-current="page"]').textContent()).toBe('Errors');
    await tab.screenshot({ path: 'test-artifacts/docs-390-menu.png' });
    await tab.close();
  });
});
