import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The repository stands alone: its code, tests and documentation cite `docs/` pages, never the
 * working notes the service was built from (their names, or "the spec"), and the guides carry no
 * implementer's notes. (This file names what it looks for, so it does not look at itself.)
 */
const REPO = resolve(import.meta.dirname, '../..');
const SELF = 'test/unit/repository-stands-alone.test.ts';
const FORBIDDEN: ReadonlyArray<{ pattern: RegExp; why: string }> = [
  { pattern: /\bCONTRACT\b/, why: 'cites the working notes; cite a docs/ page' },
  { pattern: /interface-spec|shared\/(spec|CONTRACT|DESIGN|notes)/, why: 'names a file outside the repository' },
  { pattern: /\bthe spec\b|\bspec's\b|\bspec says\b/i, why: 'cites "the spec"; cite a docs/ page' },
  { pattern: /\*chosen\b/i, why: "an implementer's note in a guide" },
];

function trackedFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: REPO, encoding: 'utf8' }).split('\n');
  return listed.filter((path) => /\.(ts|md|html|css|json|yaml|yml)$/.test(path) && !path.startsWith('node_modules/') && path !== 'package-lock.json' && path !== SELF);
}

describe('the repository stands alone', () => {
  it('no source file, test or guide cites the working notes, "the spec" or an implementer note', () => {
    const offences: string[] = [];
    for (const path of trackedFiles()) {
      let text: string;
      try {
        text = readFileSync(join(REPO, path), 'utf8');
      } catch {
        continue; // listed but deleted in the work tree
      }
      text.split('\n').forEach((line, i) => {
        for (const { pattern, why } of FORBIDDEN) if (pattern.test(line)) offences.push(`${path}:${i + 1}: ${why}: ${line.trim().slice(0, 120)}`);
      });
    }
    expect(offences).toEqual([]);
  });
});
