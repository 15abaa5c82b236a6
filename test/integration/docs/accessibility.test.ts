import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDocsSite } from '../../../site/site.js';
import { axeSummary as summary, axeViolations as violations } from '../../support/axe.js';
import { HAS_CHROMIUM, launchChromium } from '../../support/browser.js';
import { sharedTestService } from '../../support/service.js';

/**
 * axe-core (WCAG 2 A and AA) over every page of the documentation site, in Chromium: the guides,
 * the error pages and the API reference once Redoc has drawn it (test/support/axe.ts).
 */
const svc = sharedTestService();

describe.skipIf(!HAS_CHROMIUM)('the documentation site under axe-core (WCAG 2 A and AA)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('every guide and error page passes, and a keyboard can scroll each code block', { timeout: 600_000 }, async () => {
    const tab = await browser.newPage({ bypassCSP: true });
    const pages = [...buildDocsSite({ serverUrl: svc.baseUrl })]
      .filter(([path, file]) => file.contentType.startsWith('text/html') && path !== '/docs/reference')
      .map(([path]) => path);
    const found: string[] = [];
    for (const path of pages) {
      await tab.goto(`${svc.baseUrl}${path}`);
      found.push(...summary(path, await violations(tab)));
    }
    expect(pages.length).toBeGreaterThan(30);
    expect(found).toEqual([]);
    await tab.goto(`${svc.baseUrl}/docs/guides/quickstart`);
    const unreachable = await tab.$$eval(
      'pre',
      (blocks) => blocks.filter((block) => block.scrollWidth > block.clientWidth && block.tabIndex < 0).length,
    );
    expect(unreachable).toBe(0);
    await tab.locator('pre').first().focus();
    await tab.screenshot({ path: 'test-artifacts/docs-code-focus.png' });
    await tab.close();
  });

  // how long Redoc takes to draw is written down, not asserted: a timed test fails on a busy machine
  it('the API reference passes once Redoc has drawn it', { timeout: 180_000 }, async () => {
    const tab = await browser.newPage({ bypassCSP: true });
    const started = Date.now();
    await tab.goto(`${svc.baseUrl}/docs/reference`);
    await tab.getByText('/v1/plate.read').first().waitFor({ timeout: 60_000 });
    const drawnMs = Date.now() - started;
    console.log(`the API reference drew in ${drawnMs} ms`);
    const found = summary('/docs/reference', await violations(tab));
    await tab.screenshot({ path: 'test-artifacts/docs-reference-axe.png' });
    expect(found).toEqual([]);
    await tab.close();
  });
});
