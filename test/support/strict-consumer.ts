import { join } from 'node:path';
import { TYPE_CHECKER } from '../../tools/type-checker.js';
import { REPOSITORY_ROOT } from './repository-files.js';

/**
 * The command line (after `node`) that type-checks `files` as a customer's strict project would: the
 * repository's type checker (tools/type-checker.ts), Node's types only, the published client resolved
 * from the project's own folder.
 * With `emitTo`, the same run also writes their JavaScript there, so that plain `node` runs them.
 */
export function strictConsumerCheck(files: readonly string[], { emitTo }: { emitTo?: string } = {}): string[] {
  return [
    TYPE_CHECKER,
    ...(emitTo ? ['--outDir', emitTo, '--noEmitOnError'] : ['--noEmit']),
    '--strict',
    '--module',
    'nodenext',
    '--target',
    'es2022',
    '--skipLibCheck',
    '--types',
    'node',
    '--typeRoots',
    join(REPOSITORY_ROOT, 'node_modules/@types'),
    ...files,
  ];
}
