import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { eventually } from './http.js';

/**
 * `npm start` (or any npm script: `npm run start:assembly`) as a user runs it, in a scratch
 * directory (its own `.local/`, the repository's files linked in) on the ports the caller picks. The caller stops what it started with `stopNpmStarts`
 * (each start is its own process group, killed whole).
 */
export const REPO = resolve(import.meta.dirname, '../..');
const started: ChildProcess[] = [];
const scratch: string[] = [];

export interface NpmStart {
  npm: ChildProcess;
  /** the scratch directory it runs in: its `.local/credentials.json` is there */
  dir: string;
  output: () => string;
}

/** A scratch copy of the repository; `leaveOut` names entries not to link (a `cdk.out` to build afresh). */
export function scratchCopy(leaveOut: readonly string[] = []): string {
  const dir = mkdtempSync(join(tmpdir(), 'ais-start-'));
  for (const name of readdirSync(REPO))
    if (!name.startsWith('.') && !leaveOut.includes(name)) symlinkSync(join(REPO, name), join(dir, name));
  scratch.push(dir);
  return dir;
}

export function npmStart(env: Record<string, string>): NpmStart {
  return npmRun(['start'], env);
}

/** `npm <args>` in `dir` (a fresh scratch copy by default), in a process group of its own. */
export function npmRun(args: readonly string[], env: Record<string, string>, dir = scratchCopy()): NpmStart {
  let output = '';
  const npm = spawn('npm', args, {
    cwd: dir,
    env: { ...process.env, ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  npm.stdout!.on('data', (chunk) => {
    output += chunk;
  });
  npm.stderr!.on('data', (chunk) => {
    output += chunk;
  });
  started.push(npm);
  return { npm, dir, output: () => output };
}

/**
 * How long a started runtime may take to say it listens: seconds alone, but about 50 s in the first
 * minutes of a full run on two cores (DynamoDB Local's JVM and tsx beside a synth and browsers), so
 * up to just under the hooks' 120 s.
 */
export const RUNTIME_READY_MS = 110_000;

/** Waits for the "listening on" line and reads the credentials it wrote. */
export async function startedCredentials(
  start: NpmStart,
): Promise<{ base_url: string; test_key: string; live_key: string; admin_jwt: string }> {
  await eventually(async () => start.output().includes('listening on'), RUNTIME_READY_MS);
  return JSON.parse(readFileSync(join(start.dir, '.local', 'credentials.json'), 'utf8'));
}

export function stopNpmStarts(): void {
  for (const child of started.splice(0)) {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
}
