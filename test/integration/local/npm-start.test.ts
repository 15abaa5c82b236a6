import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../../../local/stand-ins/free-port.js';
import { call, eventually, formWith, imageFile } from '../../support/http.js';
import {
  type NpmStart,
  npmStart,
  RUNTIME_READY_MS,
  startedCredentials,
  stopNpmStarts,
} from '../../support/npm-start.js';
import { Receiver } from '../../support/receiver.js';

function parentOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return null;
  }
}

/** Every process below `root`, found through /proc. */
function descendants(root: number): number[] {
  const all = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number);
  const found = new Set([root]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const pid of all) {
      const parent = parentOf(pid);
      if (parent !== null && found.has(parent) && !found.has(pid)) {
        found.add(pid);
        grew = true;
      }
    }
  }
  found.delete(root);
  return [...found];
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return parentOf(pid) !== null;
  } catch {
    return false;
  }
}

function accepts(port: number): Promise<boolean> {
  return fetch(`http://127.0.0.1:${port}/v1/endpoints`).then(
    () => true,
    () => false,
  );
}

afterEach(stopNpmStarts);

/**
 * Sends `signal` to the npm process alone, as a supervisor does, or with `toGroup` to its whole
 * process group, as a terminal's Ctrl-C does, and waits until the server, its loops and DynamoDB
 * Local (every process below npm) are gone and the port refuses.
 */
async function stopsWhole(start: NpmStart, port: number, signal: NodeJS.Signals, toGroup = false): Promise<void> {
  const tree = descendants(start.npm.pid!);
  expect(tree.length).toBeGreaterThanOrEqual(2); // the node runtime and java at least
  process.kill(toGroup ? -start.npm.pid! : start.npm.pid!, signal);
  await eventually(async () => tree.every((pid) => !alive(pid)), 20_000);
  expect(await accepts(port)).toBe(false);
}

// each npm start costs seconds of CPU (a JVM, the runtime, the seed): the signal cases end the starts
// that the cases below made for their own checks, and SIGHUP has one of its own
describe('npm start stops whole, whichever signal reaches npm alone', () => {
  it('SIGHUP to the npm process stops the server, its loops and DynamoDB Local', async () => {
    const port = await freePort();
    const start = npmStart({ PORT: String(port), S3_PORT: String(await freePort()) });
    await eventually(async () => start.output().includes('listening on'), RUNTIME_READY_MS);
    await stopsWhole(start, port, 'SIGHUP');
  }, 120_000);
});

describe('DynamoDB Local never outlives the runtime', () => {
  it('SIGKILL to the node runtime (no handler can run) still takes java down', async () => {
    const { npm, output } = npmStart({ PORT: String(await freePort()), S3_PORT: String(await freePort()) });
    await eventually(async () => output().includes('listening on'), RUNTIME_READY_MS);
    const tree = descendants(npm.pid!);
    const runtime = tree.find((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('main.ts'))!;
    const java = tree.find((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').startsWith('java'))!;
    expect(runtime).toBeDefined();
    expect(java).toBeDefined();
    process.kill(runtime, 'SIGKILL');
    await eventually(async () => !alive(java), 20_000);
  }, 120_000);
});

describe('a second npm start on a busy port', () => {
  let blocker: Server | undefined;
  afterEach(async () => {
    await new Promise((done) => (blocker ? blocker.close(done) : done(undefined)));
  });

  it('says in one line which port is busy and how to pick others, without a stack trace', async () => {
    const port = await freePort();
    blocker = createServer();
    await new Promise<void>((done) => blocker!.listen(port, '127.0.0.1', done));
    const { npm, output } = npmStart({ PORT: String(port) });
    const code = await new Promise<number | null>((done) => npm.on('exit', done));
    expect(code).not.toBe(0);
    const said = output()
      .split('\n')
      .filter((line) => line.includes(String(port)) && line.includes('busy') === false && line.includes('in use'));
    expect(said).toHaveLength(1);
    expect(said[0]).toContain('PORT=');
    expect(said[0]).toContain('S3_PORT=');
    expect(output()).not.toMatch(/\n\s+at /);
  });
});

describe('npm start works jobs and delivers their webhooks', () => {
  it('settles a test job and signs its job.succeeded to a loopback receiver (both loops on the in-process queue), then SIGTERM to npm stops it whole', async () => {
    const receiver = await new Receiver().start();
    try {
      const port = await freePort();
      const start = npmStart({ PORT: String(port), S3_PORT: String(await freePort()) });
      const credentials = await startedCredentials(start);
      const endpoint = await call(credentials.base_url, 'POST', '/mgmt/v1/webhook-endpoints', {
        key: credentials.admin_jwt,
        json: { url: receiver.url, enabled_events: ['job.succeeded'] },
      });
      expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);
      const admitted = await call(credentials.base_url, 'POST', '/v1/plate.read', {
        key: credentials.test_key,
        form: formWith('image', [imageFile('worked')]),
      });
      expect(admitted.status).toBe(202);
      const settled = await eventually(async () => {
        const job = await call(credentials.base_url, 'GET', `/v1/jobs/${admitted.body.id}`, {
          key: credentials.test_key,
        });
        return job.body.status === 'succeeded' ? job.body : null;
      }, 20_000);
      const delivered = await eventually(
        async () => receiver.requests.find((request) => JSON.parse(request.body).data.job.id === admitted.body.id),
        20_000,
      );
      expect(JSON.parse(delivered.body)).toMatchObject({
        type: 'job.succeeded',
        data: { job: { id: settled.id, status: 'succeeded', result: settled.result } },
      });
      expect(delivered.headers['svc-signature']).toBeTruthy();
      await stopsWhole(start, port, 'SIGTERM');
    } finally {
      await receiver.stop();
    }
  });
});

describe('WORKER_PAUSED=1 npm start', () => {
  it('admits jobs and leaves them queued: no worker picks them up; Ctrl-C (SIGINT to the whole group) then stops it whole, in order', async () => {
    const port = await freePort();
    const start = npmStart({ PORT: String(port), S3_PORT: String(await freePort()), WORKER_PAUSED: '1' });
    const { base_url: baseUrl, test_key: key } = await startedCredentials(start);
    const admitted = await call(baseUrl, 'POST', '/v1/plate.read', {
      key,
      form: formWith('image', [imageFile('paused')]),
    });
    expect(admitted.status).toBe(202);
    // a running worker settles a test plate.read in well under 100 ms; watch it for 2 s
    const watchUntil = Date.now() + 2_000;
    while (Date.now() < watchUntil) {
      const page = await call(baseUrl, 'GET', '/v1/jobs?limit=1', { key });
      expect(page.body.data[0]).toMatchObject({ id: admitted.body.id, status: 'queued', started_at: null });
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    await stopsWhole(start, port, 'SIGINT', true);
    // DynamoDB Local is in a group of its own: it outlives the runtime's last stream read, not ends it
    expect(start.output()).not.toContain('stream read failed');
  });
});
