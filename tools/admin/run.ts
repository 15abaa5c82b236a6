import { resolve } from 'node:path';
import { parseCommand, USAGE } from './arguments.js';
import { execute } from './commands.js';
import { AdminError, adminErrorOf } from './errors.js';
import { openLocal, openStack, type Workspace } from './workspace.js';

export type AdminOutcome = { ok: true; value: object } | { ok: false; error: { code: string; message: string } };

function refusedConnection(error: unknown): boolean {
  for (let cause: unknown = error; cause; cause = (cause as { cause?: unknown }).cause) {
    if ((cause as { code?: unknown }).code === 'ECONNREFUSED') return true;
    const nested = (cause as { errors?: unknown[] }).errors;
    if (Array.isArray(nested) && nested.some(refusedConnection)) return true;
  }
  return false;
}

/**
 * `npm run admin -- <command> [options]`: one JSON object as the answer, or one as the error.
 * `localDir`: where npm start keeps its data (default `.local`, or AIS_LOCAL_DIR).
 */
export async function runAdmin(argv: readonly string[], options: { localDir?: string } = {}): Promise<AdminOutcome> {
  let workspace: Workspace | undefined;
  let stack: string | undefined;
  let region: string | undefined;
  try {
    if (argv.includes('--help') || argv.includes('-h')) return { ok: true, value: { usage: USAGE } };
    const { command, target } = parseCommand(argv);
    stack = target.stack ?? undefined;
    region = target.region ?? undefined;
    workspace = target.stack
      ? await openStack({ ...target, stack: target.stack })
      : openLocal(options.localDir ?? resolve(process.env.AIS_LOCAL_DIR ?? '.local'));
    return { ok: true, value: await execute(workspace, command) };
  } catch (error) {
    const known =
      workspace?.kind === 'local' && refusedConnection(error)
        ? new AdminError(
            'local_not_running',
            'npm start is not running (its DynamoDB Local refuses connections): start it (npm start) and run this again.',
          )
        : adminErrorOf(error, { ...(stack ? { stack } : {}), ...(region ? { region } : {}) });
    if (known) return { ok: false, error: { code: known.code, message: known.message } };
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return { ok: false, error: { code: 'failed', message: message.replace(/\s*\n\s*/g, ' ') } };
  } finally {
    workspace?.close();
  }
}
