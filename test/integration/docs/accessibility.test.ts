import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDocsSite } from '../../../site/site.js';
import { HAS_CHROMIUM, launchChromium } from '../../support/browser.js';
import { sharedTestService } from '../../support/service.js';

/**
 * axe-core (WCAG 2 A and AA) over every page of the documentation site, in Chromium: the guides,
 * the error pages and the API reference once Redoc has drawn it. axe is injected by the test (the
 * pages' CSP allows no script of another origin, so the tab bypasses it for axe alone).
 */
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const svc = sharedTestService();

interface Violation {
  id: string;
  impact: string | null;
  nodes: Array<{ target: string[]; data?: unknown }>;
}

async function violations(tab: Page): Promise<Violation[]> {
  await tab.evaluate(AXE);
  return tab.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(options: unknown): Promise<{ violations: Violation[] }> } }).axe;
    const result = await axe.run({ runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return result.violations.map(({ id, impact, nodes }) => ({
      id,
      impact,
      nodes: nodes.slice(0, 3).map((node) => ({
        target: node.target as string[],
        data: (node as { any?: Array<{ data?: unknown }> }).any?.[0]?.data,
      })),
    }));
  });
}

const summary = (path: string, found: Violation[]) =>
  found.map(
    (violation) =>
      `${path}: ${violation.id} (${violation.nodes.map((n) => `${n.target.join(' ')} ${JSON.stringify(n.data ?? '')}`).join(', ')})`,
  );

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
