import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import type { SiteFile } from '../site/site.js';

const PROJECT_ROOT = resolve(import.meta.dirname, '..');
export const DASHBOARD_BUILD = join(PROJECT_ROOT, 'dist', 'dashboard');
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.jpg': 'image/jpeg',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
};

/** The Content-Type a static file is served with, by its extension. */
export function contentTypeOf(name: string): string {
  return TYPES[extname(name)] ?? 'application/octet-stream';
}

/** Builds the SPA with Vite (about a second); `npm start` does it at every start so the page is never stale. */
export async function buildDashboard(): Promise<void> {
  const { build } = await import('vite');
  await build({ configFile: join(PROJECT_ROOT, 'dashboard', 'vite.config.ts'), logLevel: 'warn' });
}

export async function ensureDashboardBuild(): Promise<void> {
  if (!existsSync(join(DASHBOARD_BUILD, 'index.html'))) await buildDashboard();
}

/**
 * The built dashboard by URL path: its assets as they are, and index.html for every other path
 * under /dashboard, so deep links (/dashboard/jobs/job_…) load the app, which routes itself.
 */
export function dashboardFiles(): (pathname: string) => SiteFile | undefined {
  const files = new Map<string, SiteFile>();
  const walk = (dir: string, prefix: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(dir, entry.name), `${prefix}/${entry.name}`);
      else files.set(`${prefix}/${entry.name}`, { contentType: contentTypeOf(entry.name), body: readFileSync(join(dir, entry.name)) });
    }
  };
  if (existsSync(DASHBOARD_BUILD)) walk(DASHBOARD_BUILD, '/dashboard');
  const app = files.get('/dashboard/index.html');
  return (pathname) => {
    if (pathname !== '/dashboard' && !pathname.startsWith('/dashboard/')) return undefined;
    return files.get(pathname) ?? (extname(pathname) ? undefined : app);
  };
}
