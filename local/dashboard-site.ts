import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { extname, isAbsolute, join, relative, resolve } from 'node:path';
import type { Rolldown } from 'vite';
import type { SiteFile } from '../site/site.js';

const PROJECT_ROOT = resolve(import.meta.dirname, '..');
export const DASHBOARD_BUILD = join(PROJECT_ROOT, 'dist', 'dashboard');
const DASHBOARD_DIR = join(PROJECT_ROOT, 'dashboard');
/** What the build in dist/dashboard was made from: every input file (sources, styles, images, modules) and its SHA-256. */
const BUILD_INPUTS = join(PROJECT_ROOT, 'dist', 'dashboard-inputs.json');
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

/**
 * Builds the SPA with Vite (about two seconds of CPU) unless dist/dashboard was built from exactly
 * the files it would be built from now. `npm start` calls it at every start, so the page is never
 * stale, and starts that changed nothing (restarts, the tests' many starts) skip the build.
 */
export async function buildDashboard(): Promise<void> {
  if (buildIsCurrent()) return;
  const { build } = await import('vite');
  rmSync(BUILD_INPUTS, { force: true });
  const output = await build({ configFile: join(DASHBOARD_DIR, 'vite.config.ts'), logLevel: 'warn' });
  const inputs = new Set<string>([join(DASHBOARD_DIR, 'vite.config.ts'), ...publicFiles()]);
  for (const result of [output].flat() as Rolldown.RolldownOutput[]) {
    for (const item of result.output)
      if (item.type === 'chunk') for (const id of item.moduleIds) if (isAbsolute(id) && existsSync(id)) inputs.add(id);
  }
  const files = Object.fromEntries([...inputs].sort().map((file) => [relative(PROJECT_ROOT, file), sha256Of(file)]));
  writeFileSync(BUILD_INPUTS, `${JSON.stringify({ files }, null, 1)}\n`);
}

function buildIsCurrent(): boolean {
  if (!existsSync(join(DASHBOARD_BUILD, 'index.html')) || !existsSync(BUILD_INPUTS)) return false;
  const { files } = JSON.parse(readFileSync(BUILD_INPUTS, 'utf8')) as { files: Record<string, string> };
  // a file added to public/ is copied as it is: it is an input no module names
  const listed = publicFiles().every((file) => relative(PROJECT_ROOT, file) in files);
  return (
    listed &&
    Object.entries(files).every(
      ([file, hash]) => existsSync(join(PROJECT_ROOT, file)) && sha256Of(join(PROJECT_ROOT, file)) === hash,
    )
  );
}

function publicFiles(): string[] {
  const dir = join(DASHBOARD_DIR, 'public');
  return existsSync(dir)
    ? readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => join(entry.parentPath, entry.name))
    : [];
}

function sha256Of(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
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
      else
        files.set(`${prefix}/${entry.name}`, {
          contentType: contentTypeOf(entry.name),
          body: readFileSync(join(dir, entry.name)),
        });
    }
  };
  if (existsSync(DASHBOARD_BUILD)) walk(DASHBOARD_BUILD, '/dashboard');
  const app = files.get('/dashboard/index.html');
  return (pathname) => {
    if (pathname !== '/dashboard' && !pathname.startsWith('/dashboard/')) return undefined;
    return files.get(pathname) ?? (extname(pathname) ? undefined : app);
  };
}
