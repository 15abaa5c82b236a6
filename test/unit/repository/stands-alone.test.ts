import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { forbiddenCitations, STANDS_ALONE_FILE } from '../../support/stands-alone.js';

/** The repository stands alone: its code, tests and guides cite `docs/` pages, never the working notes it was built from. */
const REPO = resolve(import.meta.dirname, '../../..');

function trackedFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: REPO, encoding: 'utf8' }).split('\n');
  return listed.filter((path) => /\.(ts|js|md|html|css|json|yaml|yml)$/.test(path) && path !== 'package-lock.json' && path !== STANDS_ALONE_FILE);
}

describe('the repository stands alone', () => {
  it('no source file, test or guide cites the working notes or carries an implementer note', () => {
    const offences: string[] = [];
    for (const path of trackedFiles()) {
      let text: string;
      try {
        text = readFileSync(join(REPO, path), 'utf8');
      } catch {
        continue; // listed but deleted in the work tree
      }
      offences.push(...forbiddenCitations(text).map((line) => `${path}:${line}`));
    }
    expect(offences).toEqual([]);
  });
});
