import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDocsSite } from '../../../site/site.js';
import { axeSummary as summary, axeViolations as violations } from '../../support/axe.js';
import { HAS_CHROMIUM, launchChromium } from '../../support/browser.js';
import { sharedTestService } from '../../support/service.js';

/**
 * axe-core (WCAG 2 A and AA) over every page of the documentation site, in Chromium: the guides,
 * the error pages, the endpoint pages and the API reference (test/support/axe.ts).
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
    const html = [...buildDocsSite({ serverUrl: svc.baseUrl })]
      .filter(([path, file]) => file.contentType.startsWith('text/html') && path !== '/docs/reference')
      .map(([path]) => path);
    // the endpoint pages share one template: their index and one with a drawing stand for them all; an error
    // code's page is one template around the code's escaped text: the first stands for them all
    const typicalErrorPage = html.find((path) => path.startsWith('/docs/errors/'));
    const pages = html.filter(
      (path) =>
        (!path.startsWith('/docs/reference/') ||
          ['/docs/reference/endpoints', '/docs/reference/plate-read', '/docs/reference/schemas'].includes(path)) &&
        (!path.startsWith('/docs/errors/') || path === typicalErrorPage),
    );
    const found: string[] = [];
    for (const path of pages) {
      await tab.goto(`${svc.baseUrl}${path}`);
      found.push(...summary(path, await violations(tab)));
    }
    expect(pages.length).toBeGreaterThan(20);
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

  // the reference is static HTML rendered when the site is built (site/reference.ts): no script draws it. The time is
  // the browser's own navigation timing (DOMContentLoaded, when the parsed page is on screen), not the test's clock
  it('the API reference loads in under 2 s, passes, and reads at 390 px', { timeout: 180_000 }, async () => {
    const tab = await browser.newPage({ bypassCSP: true });
    await tab.goto(`${svc.baseUrl}/docs/reference`, { waitUntil: 'domcontentloaded' });
    await tab.locator('[id="operation/infer-plate-read"]').waitFor({ state: 'attached' });
    // a navigation entry's startTime is 0: the moment the browser began to fetch the page
    const loadedMs = await tab.evaluate<number>(
      "performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd",
    );
    console.log(`the API reference loaded (DOMContentLoaded) in ${Math.round(loadedMs)} ms`);
    expect(loadedMs).toBeLessThan(2_000);
    const found = summary('/docs/reference', await violations(tab));
    await tab.screenshot({ path: 'test-artifacts/docs-reference-axe.png' });
    expect(found).toEqual([]);
    await tab.setViewportSize({ width: 390, height: 844 });
    await tab.goto(`${svc.baseUrl}/docs/reference#operation/infer-plate-read`);
    expect(await tab.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    // the sections scrolled to are painted a frame or two after the jump (content-visibility: auto); right
    // after axe's run a screenshot taken at once was blank
    await tab.evaluate('new Promise((painted) => requestAnimationFrame(() => requestAnimationFrame(painted)))');
    await tab.screenshot({ path: 'test-artifacts/docs-reference-390.png' });
    await tab.close();
  });
});
