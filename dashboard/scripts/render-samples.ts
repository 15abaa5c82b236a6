import { mkdirSync, readdirSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

/**
 * Renders the playground's own sample pictures (dashboard/samples/*.svg, drawn for this project;
 * the car and the tire are the repository's samples/) to JPEGs beside them, in Debian's chromium:
 * `npx tsx dashboard/scripts/render-samples.ts`. The JPEGs are committed; run again after editing an SVG.
 */
const SOURCE = resolve(import.meta.dirname, '../samples');
const TARGET = SOURCE;

mkdirSync(TARGET, { recursive: true });
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
try {
  const page = await browser.newPage({ viewport: { width: 640, height: 480 } });
  for (const svg of readdirSync(SOURCE).filter((name) => name.endsWith('.svg'))) {
    await page.goto(pathToFileURL(join(SOURCE, svg)).href);
    await page.screenshot({ path: join(TARGET, `${basename(svg, '.svg')}.jpg`), type: 'jpeg', quality: 85 });
  }
} finally {
  await browser.close();
}
