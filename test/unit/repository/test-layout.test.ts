import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPOSITORY_ROOT, repositoryTexts } from '../../support/repository-files.js';

/** Unit folders that prove the repository or its documents as a whole rather than one module (docs/internals/testing.md). */
const WHOLE_REPOSITORY_FOLDERS = ['test/unit/contracts/', 'test/unit/repository/'];

/** Where the modules of each unit folder live. */
const MODULE_ROOTS: Array<[testFolder: string, moduleFolder: string]> = [
  ['test/unit/local/', 'local/'],
  ['test/unit/client/', 'client/src/'],
  ['test/unit/statemachines/', 'statemachines/'],
  ['test/unit/dashboard/', 'dashboard/src/'],
  ['test/unit/bench/', 'bench/'],
  ['test/unit/', 'lambdas/'],
];

/** The module a unit test file proves, by its path: `test/unit/domain/jobs/admission.test.ts` proves `lambdas/domain/jobs/admission.ts`. */
function provenModule(testPath: string): string | null {
  const [testFolder, moduleFolder] = MODULE_ROOTS.find(([folder]) => testPath.startsWith(folder))!;
  const name = testPath.slice(testFolder.length).replace(/(\.property)?\.test\.ts$/, '');
  const candidates = [`${moduleFolder}${name}.ts`, `${moduleFolder}${name}.asl.json`];
  return candidates.find((candidate) => existsSync(join(REPOSITORY_ROOT, candidate))) ?? null;
}

describe('the unit tests mirror the modules they prove', () => {
  it('each unit test file is named after a module at the same path under its root', () => {
    const unitTests = repositoryTexts(
      (path) =>
        path.startsWith('test/unit/') &&
        path.endsWith('.test.ts') &&
        !WHOLE_REPOSITORY_FOLDERS.some((folder) => path.startsWith(folder)),
    ).map(({ path }) => path);
    expect(unitTests.length).toBeGreaterThan(50);
    expect(unitTests.filter((path) => provenModule(path) === null)).toEqual([]);
  });
});
