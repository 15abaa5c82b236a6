import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE, ENDPOINT_SLUGS } from '../../lambdas/domain/catalogue/catalogue.js';
import { ERROR_CODES } from '../../lambdas/domain/kernel/errors.js';
import { GUIDES } from '../../lambdas/docs-site/guides.js';
import { startTestService, type TestService } from '../support/service.js';

const CHROMIUM = '/usr/bin/chromium';
let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => {
  await svc.stop();
});

async function page(path: string): Promise<{ status: number; type: string | null; text: string }> {
  const response = await fetch(`${svc.baseUrl}${path}`);
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
}

describe('the documentation site at /docs', () => {
  it('every link between pages of the site leads to a page that exists, and to the section it names', async () => {
    const pages = ['/docs', ...GUIDES.map((guide) => `/docs/guides/${guide.slug}`)];
    const broken: string[] = [];
    for (const path of pages) {
      const links = [...(await page(path)).text.matchAll(/href="([^"#]*)(?:#([^"]*))?"/g)]
        .map((match) => ({ href: match[1]!, anchor: match[2] }))
        .filter(({ href, anchor }) => (href !== '' || anchor) && !/^[a-z]+:/.test(href));
      for (const { href, anchor } of links) {
        const target = href === '' ? path : href.startsWith('/') ? href : new URL(href, `http://site${path}`).pathname;
        const landing = await page(target);
        if (landing.status !== 200) broken.push(`${path} → ${href}`);
        // a link to a section must find that section's heading
        else if (anchor && !landing.text.includes(`id="${anchor}"`)) broken.push(`${path} → ${href}#${anchor}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('a home page linking the reference, every guide and every error page', async () => {
    const home = await page('/docs');
    expect(home.status).toBe(200);
    expect(home.type).toContain('text/html');
    expect(home.text).toContain('href="/docs/reference"');
    for (const guide of GUIDES) expect(home.text).toContain(`href="/docs/guides/${guide.slug}"`);
    for (const code of Object.keys(ERROR_CODES)) expect(home.text).toContain(`href="/docs/errors/${code}"`);
    expect((await page('/docs/')).status).toBe(200);
  });

  it('every guide renders from its Markdown (quickstart, test mode, idempotency and rate limits, webhooks, uploads, inspections, deploy with LocalStack)', async () => {
    for (const guide of GUIDES) {
      const rendered = await page(`/docs/guides/${guide.slug}`);
      expect(rendered.status, guide.slug).toBe(200);
      expect(rendered.text, guide.slug).toMatch(/<h1[^>]*>/);
    }
    expect((await page('/docs/guides/quickstart')).text).toContain('npm start');
    expect((await page('/docs/guides/webhooks')).text).toContain('constructEvent');
    expect((await page('/docs/guides/deploy')).text).toContain('cdklocal');
  });

  it('the test-mode page lists every endpoint with exactly the scenarios its catalogue entry supports', async () => {
    const text = (await page('/docs/guides/test-mode')).text;
    for (const slug of ENDPOINT_SLUGS) {
      const row = new RegExp(`<tr>\\s*<td><code>${slug.replace('.', '\\.')}</code></td>\\s*<td>(.*?)</td>`, 's').exec(text);
      expect(row, slug).not.toBeNull();
      expect(
        [...row![1]!.matchAll(/<code>([a-z_]+)<\/code>/g)].map((m) => m[1]),
        slug,
      ).toEqual([...CATALOGUE[slug].scenarios]);
    }
  });

  it('the reference page loads Redoc with the same OpenAPI document the API serves', async () => {
    const reference = await page('/docs/reference');
    expect(reference.text).toContain('<redoc spec-url="/docs/reference/openapi.json"');
    expect((await page('/docs/assets/redoc.standalone.js')).status).toBe(200);
    const served = JSON.parse((await page('/docs/reference/openapi.json')).text);
    const api = JSON.parse((await page('/v1/openapi.json')).text);
    expect(served.paths).toEqual(api.paths);
  });

  it.skipIf(!existsSync(CHROMIUM))('the reference renders in a real browser: operations and schemas are on the page', { timeout: 60_000 }, async () => {
    let browser: Browser | undefined;
    try {
      browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
      const tab = await browser.newPage();
      await tab.goto(`${svc.baseUrl}/docs/reference`);
      await tab.getByText('/v1/plate.read').first().waitFor({ timeout: 30_000 });
      expect(await tab.content()).toContain('webhook-endpoints');
      await tab.screenshot({ path: 'test-artifacts/docs-reference.png' });
    } finally {
      await browser?.close();
    }
  });
});
