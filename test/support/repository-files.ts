import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const REPOSITORY_ROOT = resolve(import.meta.dirname, '../..');

/** The repository's files git tracks or would track (untracked, not ignored) that `keep` accepts, with their text. */
export function repositoryTexts(keep: (path: string) => boolean): Array<{ path: string; text: string }> {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: REPOSITORY_ROOT,
    encoding: 'utf8',
  }).split('\n');
  return listed
    .filter((path) => path !== '' && keep(path))
    .flatMap((path) => {
      try {
        return [{ path, text: readFileSync(join(REPOSITORY_ROOT, path), 'utf8') }];
      } catch {
        return []; // listed but deleted in the work tree
      }
    });
}
