import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { LOCAL_SYNTH_CONTEXT } from '../../../local/assembly/synth.js';
import { freePort } from '../../../local/stand-ins/free-port.js';
import { eventually } from '../../support/http.js';
import {
  npmRun,
  npmStart,
  RUNTIME_READY_MS,
  scratchCopy,
  startedCredentials,
  stopNpmStarts,
} from '../../support/npm-start.js';

/**
 * Two runtimes in one checkout (`npm start`, `npm run start:assembly`): each keeps its data and
 * credentials in a home of its own, a second start of the same runtime refuses the first one's
 * data, `npm run admin` reaches the runtime `.local/credentials.json` names, and `start:assembly`
 * says in one line why it will not run an assembly as it is. Nothing here synthesises: the
 * assemblies are written by hand (test/integration/local/start-assembly.test.ts runs a real one).
 */
afterEach(stopNpmStarts);

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A cloud assembly directory: a manifest and one template holding `content`, the manifest written at `time`. */
function handMadeAssembly(content: string, time?: Date): string {
  const dir = mkdtempSync(join(tmpdir(), 'ais-assembly-'));
  made.push(dir);
  writeFileSync(join(dir, 'Stack.template.json'), content);
  writeFileSync(join(dir, 'manifest.json'), '{"version":"41.0.0","artifacts":{}}');
  if (time) utimesSync(join(dir, 'manifest.json'), time, time);
  return dir;
}

/** Its exit code, once its output is read to the end ('close': after 'exit', when the pipes are drained). */
async function exited(start: ReturnType<typeof npmRun>): Promise<number | null> {
  return new Promise((done) => start.npm.once('close', done));
}

async function ports(): Promise<Record<string, string>> {
  return { PORT: String(await freePort()), S3_PORT: String(await freePort()), LOG_LEVEL: 'WARN' };
}

/** The lines a failed start printed, npm's own `npm error` lines aside. */
function ownLines(output: string): string[] {
  return output
    .split('\n')
    .filter((line) => line.trim() !== '' && !/^npm (error|warn|notice)\b/.test(line) && !line.startsWith('>'));
}

describe('start:assembly runs only an assembly made for it', () => {
  it('refuses an assembly named with --assembly that a plain cdk synth made, or that is older than the sources, in one line saying which and how', async () => {
    const plain = handMadeAssembly('{"Resources":{}}');
    const old = handMadeAssembly(
      JSON.stringify({ Outputs: { ReferencePlaneUrl: {} }, Resources: { X: { jwt: LOCAL_SYNTH_CONTEXT.jwtIssuer } } }),
      new Date('2001-01-01T00:00:00Z'),
    );
    for (const [assembly, reason] of [
      [plain, /was synthesised without the local switches \(-c referencePlane=true -c jwtIssuer=/],
      [old, /is older than the sources \(\S+ changed since it was synthesised\)/],
    ] as const) {
      const start = npmRun(['run', 'start:assembly', '--', '--assembly', assembly], await ports());
      expect(await exited(start), start.output()).toBe(1);
      const lines = ownLines(start.output());
      expect(lines, start.output()).toHaveLength(1);
      expect(lines[0]).toMatch(new RegExp(`^Refusing ${assembly}: .*${reason.source}`));
      expect(lines[0]).toContain(`npm run start:assembly -- --synth --assembly ${assembly}`);
    }
  });

  it("rebuilds cdk.out that a plain cdk synth made (docs/internals/deploy.md's order), saying why in one line", async () => {
    const dir = scratchCopy(['cdk.out']);
    mkdirSync(join(dir, 'cdk.out'));
    writeFileSync(join(dir, 'cdk.out', 'Stack.template.json'), '{"Resources":{}}');
    writeFileSync(join(dir, 'cdk.out', 'manifest.json'), '{"version":"41.0.0","artifacts":{}}');
    const start = npmRun(['run', 'start:assembly'], await ports(), dir);
    // the synthesis itself takes minutes: the line saying why it starts is what is checked
    await eventually(async () => start.output().includes('Synthesising'), 60_000, 200);
    expect(start.output()).toMatch(
      /Synthesising \S+\/cdk\.out with the local switches: \S+\/cdk\.out was synthesised without the local switches \(-c referencePlane=true/,
    );
  });
});

describe('npm start beside another runtime', () => {
  it("keeps its data and credentials in .local/start/, refuses a second npm start on them, and moves a checkout's older .local/ data there", async () => {
    const dir = scratchCopy();
    // what npm start kept directly under .local/ before each runtime had a home of its own
    mkdirSync(join(dir, '.local', 'dynamodb'), { recursive: true });
    const first = npmStart({ ...(await ports()) });
    // npmStart makes its own scratch copy: run the migration case in `dir` instead
    const migrated = npmRun(['start'], await ports(), dir);
    const credentials = await startedCredentials(first);
    await eventually(async () => migrated.output().includes('listening on'), RUNTIME_READY_MS, 200);
    expect(existsSync(join(dir, '.local', 'start', 'dynamodb'))).toBe(true);
    expect(existsSync(join(dir, '.local', 'dynamodb'))).toBe(false);

    const own = JSON.parse(readFileSync(join(first.dir, '.local', 'start', 'credentials.json'), 'utf8'));
    expect(own).toEqual(credentials);
    const standIns = JSON.parse(readFileSync(join(first.dir, '.local', 'start', 'stand-ins.json'), 'utf8'));
    expect(standIns).toMatchObject({ base_url: credentials.base_url, pid: expect.any(Number) });

    const second = npmRun(['start'], await ports(), first.dir);
    expect(await exited(second), second.output()).toBe(1);
    const lines = ownLines(second.output());
    expect(lines, second.output()).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(
        `^npm start already runs from this checkout \\(pid \\d+, ${credentials.base_url}\\) on the data in \\S+/\\.local/start: stop it first`,
      ),
    );
    expect(lines[0]).toContain('npm run start:assembly');

    // npm run admin reaches the runtime .local/credentials.json names
    const admin = await promisify(execFile)('npm', ['run', '--silent', 'admin', '--', 'list-organizations'], {
      cwd: first.dir,
    });
    const listed = JSON.parse(admin.stdout) as { data: Array<{ id: string }> };
    expect(listed.data.map((organization) => organization.id)).toContain(own.org_id);
  }, 120_000);
});
