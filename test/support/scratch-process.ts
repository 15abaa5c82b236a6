import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * Runs npm scripts as a user would, each in a scratch directory of its own (the repository's
 * entries symlinked, so its own `.local/`), in a process group the test kills afterwards.
 */
const REPO = resolve(import.meta.dirname, '../..');

export interface ScratchProcess {
  child: ChildProcess;
  directory: string;
  output(): string;
}

export class ScratchProcesses {
  private readonly started: ChildProcess[] = [];
  private readonly scratch: string[] = [];

  /** A scratch copy of the repository; `leaveOut` names entries not to link (e.g. a `cdk.out` to rebuild). */
  directory(leaveOut: readonly string[] = []): string {
    const dir = mkdtempSync(join(tmpdir(), 'ais-start-'));
    for (const name of readdirSync(REPO)) if (!name.startsWith('.') && !leaveOut.includes(name)) symlinkSync(join(REPO, name), join(dir, name));
    this.scratch.push(dir);
    return dir;
  }

  /** `npm <args>` in `directory` (a fresh scratch copy by default), its output collected. */
  npm(args: readonly string[], env: Record<string, string>, directory = this.directory()): ScratchProcess {
    let output = '';
    const child = spawn('npm', args, { cwd: directory, env: { ...process.env, ...env }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr!.on('data', (chunk) => {
      output += chunk;
    });
    this.started.push(child);
    return { child, directory, output: () => output };
  }

  /** Kills every process group started and removes every scratch directory. */
  cleanUp(): void {
    for (const child of this.started.splice(0)) {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    for (const dir of this.scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
  }
}
