import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { buildDocsSite } from './site.js';

/** One file per URL path (`/docs/guides/webhooks` → `guides/webhooks/index.html`), as S3 + CloudFront serve them. */
export function writeDocsSite(outDir: string, serverUrl: string): void {
  rmSync(outDir, { recursive: true, force: true });
  for (const [path, file] of buildDocsSite({ serverUrl })) {
    const relative = path.replace(/^\/docs\/?/, '');
    const target = /\.[a-z]+$/.test(relative) ? join(outDir, relative) : join(outDir, relative, 'index.html');
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, file.body);
  }
}
