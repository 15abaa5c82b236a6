import { describe, expect, it } from 'vitest';
import { REPOSITORY_ROOT, repositoryTexts } from '../../support/repository-files.js';
import { namedPaths, pathExists } from '../../support/repository-paths.js';

/** Code (comments included), scripts and guides: where a reader is told "see lambdas/…". */
const readable = (path: string) => /\.(ts|md|ya?ml|sh|java)$/.test(path) || /^(\.ci|bin)\/[\w-]+$/.test(path);

describe('repository paths', () => {
  it('every repository path named in code, a comment, a script or a guide exists', () => {
    const stale = repositoryTexts(readable).flatMap(({ path: file, text }) =>
      namedPaths(text)
        .filter(({ path }) => !pathExists(REPOSITORY_ROOT, path))
        .map(({ line, path }) => `${file}:${line}: ${path}`),
    );
    expect(stale).toEqual([]);
  });

  it('recognises a path, a folder, a family with a placeholder and an import specifier', () => {
    const named = namedPaths(
      'see lambdas/http/routes/ and docs/internals/deploy.md, `lambdas/http/routes/jobs/<module>.ts`, (bench/run.js); not /docs/guides/x or s3://bucket/lib/x',
    );
    expect(named.map(({ path }) => path)).toEqual([
      'lambdas/http/routes/',
      'docs/internals/deploy.md',
      'lambdas/http/routes/jobs/',
      'bench/run.js',
    ]);
    expect(named.every(({ path }) => pathExists(REPOSITORY_ROOT, path))).toBe(true);
    expect(pathExists(REPOSITORY_ROOT, ['lambdas', 'http', 'mgmt.ts'].join('/'))).toBe(false);
  });
});
