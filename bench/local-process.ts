import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { freePort } from '../local/stand-ins/free-port.js';

const REPO = resolve(import.meta.dirname, '..');

export interface LocalCredentials {
  base_url: string;
  org_id: string;
  live_key: string;
  test_key: string;
  owner_jwt: string;
  admin_jwt: string;
}

/** `npm start`'s own process (local/main.ts) in a scratch directory, as a user runs it. */
export class LocalProcess {
  private child: ChildProcess | undefined;
  readonly cwd = mkdtempSync(join(tmpdir(), 'ais-bench-'));
  credentials!: LocalCredentials;
  standIns!: { dynamodb: string; s3: string };

  constructor(private readonly env: Record<string, string> = {}) {
    for (const name of readdirSync(REPO))
      if (!name.startsWith('.')) symlinkSync(join(REPO, name), join(this.cwd, name));
  }

  async start(): Promise<this> {
    let output = '';
    const child = spawn(process.execPath, ['--import', 'tsx', 'local/main.ts'], {
      cwd: this.cwd,
      env: {
        ...process.env,
        PORT: String(await freePort()),
        S3_PORT: String(await freePort()),
        LOG_LEVEL: 'ERROR',
        ...this.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    child.stdout!.on('data', (chunk) => (output += chunk));
    child.stderr!.on('data', (chunk) => (output += chunk));
    const deadline = Date.now() + 90_000;
    while (!output.includes('listening on')) {
      if (child.exitCode !== null || Date.now() > deadline)
        throw new Error(`npm start did not come up: ${output.slice(-2000)}`);
      await delay(50);
    }
    this.credentials = JSON.parse(
      readFileSync(join(this.cwd, '.local', 'credentials.json'), 'utf8'),
    ) as LocalCredentials;
    this.standIns = JSON.parse(readFileSync(join(this.cwd, '.local', 'start', 'stand-ins.json'), 'utf8')) as {
      dynamodb: string;
      s3: string;
    };
    return this;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (child && child.exitCode === null) {
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      await Promise.race([exited, delay(15_000).then(() => child.kill('SIGKILL'))]);
    }
    rmSync(this.cwd, { recursive: true, force: true });
  }
}
