import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { namedPaths, pathExists } from '../../support/repository-paths.js';

const REPO = resolve(import.meta.dirname, '../../..');

/** Code (comments included), scripts and guides: where a reader is told "see lambdas/…". */
function readableFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: REPO, encoding: 'utf8' }).split('\n');
  return listed.filter((path) => /\.(ts|md|ya?ml|sh|java)$/.test(path) || /^(\.ci|bin)\/[\w-]+$/.test(path));
}

describe('repository paths', () => {
  it('every repository path named in code, a comment, a script or a guide exists', () => {
    const stale: string[] = [];
    for (const file of readableFiles()) {
      let text: string;
      try {
        text = readFileSync(join(REPO, file), 'utf8');
      } catch {
        continue; // listed but deleted in the work tree
      }
      for (const { line, path } of namedPaths(text)) if (!pathExists(REPO, path)) stale.push(`${file}:${line}: ${path}`);
    }
    expect(stale).toEqual([]);
  });

  it('recognises a path, a folder, a family with a placeholder and an import specifier', () => {
    const named = namedPaths('see lambdas/http/routes/ and docs/deploy.md, `lambdas/http/handlers/<module>.ts`, (bench/run.js); not /docs/guides/x or s3://bucket/lib/x');
    expect(named.map(({ path }) => path)).toEqual(['lambdas/http/routes/', 'docs/deploy.md', 'lambdas/http/handlers/', 'bench/run.js']);
    expect(named.every(({ path }) => pathExists(REPO, path))).toBe(true);
    expect(pathExists(REPO, ['lambdas', 'http', 'mgmt.ts'].join('/'))).toBe(false);
  });
});
