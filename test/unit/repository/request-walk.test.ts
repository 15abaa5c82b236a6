import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPOSITORY_ROOT } from '../../support/repository-files.js';

interface Step {
  file: string;
  depth: number;
  parent: string | null;
}

/** The walk's files as docs/internals/architecture.md draws them: a file indented under another is imported by it. */
function walkOf(guide: string): Step[] {
  const section = guide.split('### The walk of `POST /v1/plate.read`')[1]!;
  const block = section.split('```text\n')[1]!.split('```')[0]!;
  const parents: string[] = [];
  return block
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const depth = (line.length - line.trimStart().length) / 2;
      const file = line.trim().split(/\s+/)[0]!;
      parents[depth] = file;
      return { file, depth, parent: depth === 0 ? null : parents[depth - 1]! };
    });
}

/** The repository files a module imports, statically or by `import()`. */
function importsOf(file: string): string[] {
  const source = readFileSync(join(REPOSITORY_ROOT, file), 'utf8');
  const specifiers = [...source.matchAll(/(?:from\s+|import\()\s*'(\.{1,2}\/[^']+)'/g)].map((match) => match[1]!);
  return specifiers.map((specifier) => normalize(join(dirname(file), specifier)).replace(/\.js$/, '.ts'));
}

describe('the walk of POST /v1/plate.read in docs/internals/architecture.md', () => {
  const guide = readFileSync(join(REPOSITORY_ROOT, 'docs/internals/architecture.md'), 'utf8');
  const walk = walkOf(guide);

  it('names files that exist, each imported by the file it is drawn under', () => {
    expect(walk.length).toBeGreaterThan(10);
    const broken = walk.filter((step) => step.parent !== null && !importsOf(step.parent).includes(step.file));
    expect(broken.map((step) => `${step.parent} does not import ${step.file}`)).toEqual([]);
  });

  it('says how many files it names', () => {
    expect(guide).toContain(`That is ${walk.length} files`);
  });
});
