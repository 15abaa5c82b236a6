import { existsSync, mkdirSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';

// The browser tests drive Debian's Chromium (never a downloaded browser) and are skipped where it is
// not installed; their screenshots go under test-artifacts/ for a person to look at.

export const CHROMIUM = '/usr/bin/chromium';
export const HAS_CHROMIUM = existsSync(CHROMIUM);
const DASHBOARD_SHOTS = 'test-artifacts/dashboard';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
}

/** A full-page screenshot of a dashboard page: test-artifacts/dashboard/<name>.png. */
export function dashboardShot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<Buffer> {
  mkdirSync(DASHBOARD_SHOTS, { recursive: true });
  return page.screenshot({ path: `${DASHBOARD_SHOTS}/${name}.png`, fullPage: options.fullPage ?? true });
}
