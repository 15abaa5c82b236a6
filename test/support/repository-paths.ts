import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** The repository's top-level folders a path named in a comment or a guide starts with. */
export const TOP_LEVEL_FOLDERS = [
  'lambdas',
  'lib',
  'local',
  'site',
  'bin',
  'test',
  'bench',
  'docs',
  'statemachines',
  'client',
  'dashboard',
  'tools',
  'samples',
] as const;

// `lambdas/http/routes/`, `docs/internals/deploy.md`, `bench/run.ts`: a top-level folder, then path characters
const PATH_TOKEN = new RegExp(`(?<![\\w./@=-])(?:${TOP_LEVEL_FOLDERS.join('|')})/[\\w.@/-]*[\\w/]`, 'g');

/** Repository paths a text names (repo-relative, as written), one entry per occurrence with its line number. */
export function namedPaths(text: string): Array<{ line: number; path: string }> {
  const found: Array<{ line: number; path: string }> = [];
  text.split('\n').forEach((content, i) => {
    for (const match of content.matchAll(PATH_TOKEN)) found.push({ line: i + 1, path: match[0] });
  });
  return found;
}

/**
 * Whether a named path is in the repository. A family named with a placeholder
 * (`lambdas/http/routes/jobs/<module>.ts`) is matched up to the placeholder: its folder must exist.
 * A trailing `.js` stands for the `.ts` source, as in an import.
 */
export function pathExists(repo: string, named: string): boolean {
  return existsSync(join(repo, named)) || (named.endsWith('.js') && existsSync(join(repo, `${named.slice(0, -3)}.ts`)));
}
