import { describe, expect, it } from 'vitest';
import { repositoryTexts } from '../../support/repository-files.js';
import { forbiddenCitations, STANDS_ALONE_FILE } from '../../support/stands-alone.js';

/** The repository stands alone: its code, tests and guides cite `docs/` pages, never the working notes it was built from. */
describe('the repository stands alone', () => {
  it('no source file, test or guide cites the working notes or carries an implementer note', () => {
    const citing = (path: string) =>
      /\.(ts|js|md|html|css|json|yaml|yml)$/.test(path) && path !== 'package-lock.json' && path !== STANDS_ALONE_FILE;
    const offences = repositoryTexts(citing).flatMap(({ path, text }) =>
      forbiddenCitations(text).map((line) => `${path}:${line}`),
    );
    expect(offences).toEqual([]);
  });
});
