import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { buildDocsSite } from './site.js';

/**
 * `npm run docs:build [-- <server url>]`: writes the documentation site to dist/docs, one file per
 * URL path (`/docs/guides/webhooks` → `dist/docs/guides/webhooks/index.html`), ready for S3.
 */
const out = resolve('dist', 'docs');
const serverUrl = process.argv[2] ?? 'https://api.automotive-inference.example/prod';
rmSync(out, { recursive: true, force: true });
for (const [path, file] of buildDocsSite({ serverUrl })) {
  const relative = path.replace(/^\/docs\/?/, '');
  const target = /\.[a-z]+$/.test(relative) ? join(out, relative) : join(out, relative, 'index.html');
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, file.body);
}
console.log(`documentation written to ${out}`);
