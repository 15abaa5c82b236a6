import { execFile, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageMajor } from '../../../client/scripts/generate.js';
import { freePort } from '../../../local/stand-ins/free-port.js';
import { TYPE_CHECKER } from '../../../tools/type-checker.js';
import { imageFile } from '../../support/http.js';
import { asRole } from '../../support/management.js';
import { sharedTestService } from '../../support/service.js';
import { strictConsumerCheck } from '../../support/strict-consumer.js';

/**
 * The client as a user gets it: `npm pack` of client/, installed from the tarball into a fresh
 * project (its dependencies from the registry), then used and its shipped examples run with
 * plain `node` (no tsx, no TypeScript) against a started local runtime.
 */
const run = promisify(execFile);
const CLIENT_DIR = resolve(import.meta.dirname, '../../../client');
/** a case that type-checks (the second with the DOM library checked, as a browser project has it) */
const TSC_CASE_TIMEOUT_MS = 180_000;
const PACKAGE = '@automotive-inference/client';

const svc = sharedTestService();
let project: string;
let installed: string;

/** the untracked files `npm pack` left in client/ (its tarball, dist/), read before the tarball is moved away */
let untrackedAfterPack: string[];

beforeAll(async () => {
  project = mkdtempSync(join(tmpdir(), 'ais-client-'));
  // packed where a maintainer packs it, in client/ (prepack builds dist/ with tsc): one pack serves every case
  const { stdout } = await run('npm', ['pack', '--json'], { cwd: CLIENT_DIR });
  const [{ filename }] = JSON.parse(stdout) as [{ filename: string }];
  try {
    const status = await run('git', ['status', '--porcelain', '--untracked-files=all', '--', '.'], { cwd: CLIENT_DIR });
    untrackedAfterPack = status.stdout.split('\n').filter((line) => line.startsWith('??'));
    copyFileSync(join(CLIENT_DIR, filename), join(project, filename));
  } finally {
    rmSync(join(CLIENT_DIR, filename), { force: true });
  }
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'fresh-project', private: true, type: 'module' }),
  );
  await run('npm', ['install', join(project, filename), '--no-audit', '--no-fund', '--prefer-offline'], {
    cwd: project,
  });
  installed = join(project, 'node_modules', PACKAGE);
  writeFileSync(join(project, 'car.jpg'), Buffer.from(await imageFile('packed-client').arrayBuffer()));
  writeFileSync(join(project, 'walkaround.mp4'), Buffer.alloc(4096, 'video'));
}, 180_000);

afterAll(async () => {
  if (project) rmSync(project, { recursive: true, force: true });
});

const node = (args: string[]) => run(process.execPath, args, { cwd: project, timeout: 60_000 });

/** The error lines of a tsc run in the project (`file(line,col): error TS…`), none when it passes. */
async function typeErrors(tscArguments: string[]): Promise<string[]> {
  const output = await run(process.execPath, tscArguments, { cwd: project }).then(
    ({ stdout }) => stdout,
    (error: { stdout: string }) => error.stdout,
  );
  return output.split('\n').filter((line) => /\berror TS\d+/.test(line));
}

describe('the client, packed and installed like a package', () => {
  it('ships built JavaScript and .d.ts (no TypeScript source), its version tied to the API version, and brings openapi-fetch', () => {
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'));
    expect(Number(manifest.version.split('.')[0])).toBe(packageMajor());
    for (const file of [
      manifest.exports['.'].default,
      manifest.exports['.'].types,
      manifest.exports['.'].browser,
      'dist/examples/first-job.js',
    ])
      expect(existsSync(join(installed, file))).toBe(true);
    expect(existsSync(join(installed, 'src'))).toBe(false);
    expect(existsSync(join(project, 'node_modules', 'openapi-fetch', 'package.json'))).toBe(true);
  });

  it('a fresh project imports it by name under plain node and runs a job', async () => {
    writeFileSync(
      join(project, 'app.js'),
      `import { readFileSync } from 'node:fs';
import { API_VERSION, createAisClient } from '${PACKAGE}';
const client = createAisClient({ baseUrl: process.argv[2], apiKey: process.argv[3] });
const job = await client.run('plate.read', { files: { image: new Blob([readFileSync('car.jpg')], { type: 'image/jpeg' }) } });
console.log(JSON.stringify({ apiVersion: API_VERSION, status: job.status, plates: job.result.plates.length }));
`,
    );
    const { stdout } = await node(['app.js', svc.baseUrl, svc.org.testKey]);
    expect(JSON.parse(stdout)).toMatchObject({ apiVersion: svc.services.config.apiVersion, status: 'succeeded' });
  });

  // each case is one tsc run over a file that must compile and one that must not: tsc is seconds alone, and
  // over a minute on two cores shared with the rest of the suite, so the two files share the run
  it('its types check a TypeScript consumer: a typed result, and a wrong field is an error', {
    timeout: TSC_CASE_TIMEOUT_MS,
  }, async () => {
    const consumer = (file: string, body: string) =>
      writeFileSync(
        join(project, file),
        `import { createAisClient } from '${PACKAGE}';\nconst client = createAisClient({ baseUrl: '', apiKey: '' });\n${body}\n`,
      );
    consumer(
      'consumer.ts',
      "const job = await client.run('plate.read', {});\nconst text: string | undefined = job.result?.plates[0]?.text;\nexport { text };",
    );
    consumer(
      'consumer-wrong.ts',
      "const job = await client.run('plate.read', {});\nexport const v = job.result?.plates[0]?.vin;",
    );
    const errors = await typeErrors(strictConsumerCheck(['consumer.ts', 'consumer-wrong.ts']));
    expect(errors.length).toBeGreaterThan(0);
    for (const error of errors) expect(error).toMatch(/^consumer-wrong\.ts\(\d+,\d+\): /);
    expect(errors.join('\n')).toContain("Property 'vin' does not exist");
  });

  it('compiles in a TypeScript project without @types/node, library checks on: no Node type in its public surface', {
    timeout: TSC_CASE_TIMEOUT_MS,
  }, async () => {
    writeFileSync(
      join(project, 'no-node.ts'),
      `import { createAisClient, verifyWebhook, type ErrorCode, type JobErrorCode } from '${PACKAGE}';
const client = createAisClient({ baseUrl: '', apiKey: '' });
const job = await client.waitForJob('job_x');
// a job's error code is typed by the document's JobErrorCode, itself a part of ErrorCode
const code: JobErrorCode | undefined = job.error?.code;
const asError: ErrorCode | undefined = code;
const event = verifyWebhook(new TextEncoder().encode('{}'), undefined, 'whsec');
export { asError, event };
`,
    );
    // and a code that is not a job's is an error
    writeFileSync(
      join(project, 'no-node-wrong.ts'),
      `import { createAisClient } from '${PACKAGE}';
const job = await createAisClient({ baseUrl: '', apiKey: '' }).waitForJob('job_x');
export const wrong: 'route_not_found' | undefined = job.error?.code;
`,
    );
    writeFileSync(
      join(project, 'tsconfig.no-node.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          module: 'nodenext',
          target: 'es2022',
          lib: ['es2022', 'dom'],
          types: [],
          // the package's own declarations are checked; TypeScript's lib.*.d.ts (the DOM's alone is most of the run) are not ours
          skipLibCheck: false,
          skipDefaultLibCheck: true,
        },
        files: ['no-node.ts', 'no-node-wrong.ts'],
      }),
    );
    expect(existsSync(join(project, 'node_modules', '@types', 'node'))).toBe(false);
    // no error in the library's files or in the consumer that uses it right: only the wrong code
    const errors = await typeErrors([TYPE_CHECKER, '-p', 'tsconfig.no-node.json']);
    expect(errors.length).toBeGreaterThan(0);
    for (const error of errors) expect(error).toMatch(/^no-node-wrong\.ts\(\d+,\d+\): /);
    expect(errors.join('\n')).toContain('is not assignable to type');
  });

  it('npm pack in client/ leaves the checkout as it was: the tarball and dist/ are ignored', () => {
    expect(untrackedAfterPack).toEqual([]);
  });

  it('example first-job.js, from the tarball: reads the plates of an image', async () => {
    const { stdout } = await node([
      join(installed, 'dist/examples/first-job.js'),
      svc.baseUrl,
      svc.org.testKey,
      'car.jpg',
    ]);
    expect(stdout).toMatch(/^\[.*\]/);
  });

  it('example upload-and-wait.js, from the tarball: a video through an upload, the second use refused as its type', async () => {
    const { stdout } = await node([
      join(installed, 'dist/examples/upload-and-wait.js'),
      svc.baseUrl,
      svc.org.testKey,
      'walkaround.mp4',
    ]);
    expect(JSON.parse(stdout)).toMatchObject({ status: 'succeeded', reuse: 'conflict' });
  });

  it('example verify-webhook.js, from the tarball: a receiver that verifies and prints the settled job', async () => {
    const port = await freePort();
    const endpoint = await asRole(svc, 'admin', 'POST', '/mgmt/v1/webhook-endpoints', {
      json: { url: `http://127.0.0.1:${port}/hooks`, enabled_events: ['job.succeeded'] },
    });
    const receiver = spawn(
      process.execPath,
      [join(installed, 'dist/examples/verify-webhook.js'), String(port), endpoint.body.secret],
      { cwd: project },
    );
    try {
      const lines = createInterface({ input: receiver.stdout });
      const seen: string[] = [];
      const listening = new Promise<void>((resolveListening) =>
        lines.on('line', (line) => (line.startsWith('listening') ? resolveListening() : seen.push(line))),
      );
      await listening;
      const client = (await import('../../../client/src/index.js')).createAisClient({
        baseUrl: svc.baseUrl,
        apiKey: svc.org.testKey,
      });
      const job = await client.createJob('vin.read', { files: { image: imageFile('packed-hook') } });
      await expect.poll(() => seen.map((line) => JSON.parse(line).job), { timeout: 20_000 }).toContain(job.id);
    } finally {
      receiver.kill();
      await asRole(svc, 'admin', 'DELETE', `/mgmt/v1/webhook-endpoints/${endpoint.body.id}`);
    }
  });
});
