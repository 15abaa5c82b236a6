import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../local/stand-ins/free-port.js';
import { call, eventually, formWith, imageFile } from '../../support/http.js';
import { submitInspection } from '../../support/inspections.js';
import { RUNTIME_READY_MS } from '../../support/npm-start.js';

/** The log lines `npm start` itself prints (docs/internals/operations.md, "Logs"), read from its stdout. */
const REPO = resolve(import.meta.dirname, '../../..');
let runtime: ChildProcess;
let scratch: string;
let output = '';
let baseUrl = '';
let credentials: {
  org_id: string;
  test_key: string;
  owner_jwt: string;
  member_jwt: string;
  live_key: string;
  inference_callback_secret: string;
};

function lines(): Array<Record<string, unknown>> {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{"level"'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'ais-logs-'));
  for (const name of readdirSync(REPO)) if (!name.startsWith('.')) symlinkSync(join(REPO, name), join(scratch, name));
  const port = await freePort();
  runtime = spawn(process.execPath, ['--import', 'tsx', 'local/main.ts'], {
    cwd: scratch,
    env: { ...process.env, PORT: String(port), S3_PORT: String(await freePort()), LOG_LEVEL: 'INFO' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  runtime.stdout!.on('data', (chunk) => {
    output += chunk;
  });
  await eventually(async () => output.includes('listening on'), RUNTIME_READY_MS);
  baseUrl = `http://127.0.0.1:${port}`;
  credentials = JSON.parse(readFileSync(join(scratch, '.local', 'credentials.json'), 'utf8'));
});

afterAll(async () => {
  runtime.kill('SIGTERM');
  await new Promise((done) => runtime.once('exit', done));
  rmSync(scratch, { recursive: true, force: true });
});

describe('npm start logs one JSON line per request and per job transition', () => {
  it('a request: request_id (as in Request-Id), route, status, duration_ms, org_id, job_id', async () => {
    const answer = await call(baseUrl, 'POST', '/v1/plate.read', {
      key: credentials.test_key,
      form: formWith('image', [imageFile('log-me')]),
    });
    expect(answer.status).toBe(202);
    const requestId = answer.headers.get('request-id');
    const line = await eventually(async () =>
      lines().find((l) => l.message === 'request' && l.request_id === requestId),
    );
    expect(line).toMatchObject({
      level: 'INFO',
      route: 'infer-plate-read',
      status: 202,
      job_id: answer.body.id,
      org_id: expect.stringMatching(/^org_/),
    });
    expect(typeof line.timestamp).toBe('string');
    expect(line.duration_ms).toEqual(expect.any(Number));
  });

  it('a refusal once the credential is known still names its org_id: a member on an admin route (403)', async () => {
    const answer = await call(baseUrl, 'GET', '/mgmt/v1/webhook-endpoints', { key: credentials.member_jwt });
    expect(answer.status).toBe(403);
    const requestId = answer.body.error.request_id;
    const line = await eventually(async () =>
      lines().find((l) => l.message === 'request' && l.request_id === requestId),
    );
    expect(line).toMatchObject({ route: 'list-webhook-endpoints', status: 403, org_id: credentials.org_id });
  });

  it("a job: queued, processing, succeeded, each with its job_id, org_id and the admitting request's id", async () => {
    const answer = await call(baseUrl, 'POST', '/v1/vin.read', {
      key: credentials.test_key,
      form: formWith('image', [imageFile('log-job')]),
    });
    const jobId = answer.body.id as string;
    const transitions = await eventually(async () => {
      const found = lines().filter((l) => l.message === 'job transition' && l.job_id === jobId);
      return found.some((l) => l.status === 'succeeded') ? found : null;
    });
    expect(transitions.map((l) => l.status)).toEqual(['queued', 'processing', 'succeeded']);
    for (const line of transitions)
      expect(line).toMatchObject({
        request_id: answer.headers.get('request-id'),
        org_id: expect.stringMatching(/^org_/),
        endpoint: 'vin.read',
      });
  });

  it("an inspection: queued, processing, succeeded; each stage job's transitions carry the inspection's request id", async () => {
    const answer = await submitInspection(baseUrl, { key: credentials.test_key, seed: 'log-inspection' });
    expect(answer.status).toBe(202);
    const inspectionId = answer.body.id as string;
    const requestId = answer.headers.get('request-id');
    const transitions = await eventually(async () => {
      const found = lines().filter((l) => l.message === 'job transition' && l.job_id === inspectionId);
      return found.some((l) => l.status === 'succeeded') ? found : null;
    }, 60_000);
    expect(transitions.map((l) => l.status)).toEqual(['queued', 'processing', 'succeeded']);
    for (const line of transitions) expect(line).toMatchObject({ request_id: requestId, endpoint: 'inspections' });
    const stageLines = lines().filter(
      (l) => l.message === 'job transition' && l.request_id === requestId && l.job_id !== inspectionId,
    );
    const stageJobs = new Set(stageLines.map((l) => l.job_id));
    expect(stageJobs.size).toBe(8);
    for (const job of stageJobs)
      expect(stageLines.filter((l) => l.job_id === job).map((l) => l.status)).toEqual([
        'queued',
        'processing',
        'succeeded',
      ]);
  });

  it("a failed inspection's lines, the execution's failure included, carry its request id and organisation", async () => {
    const answer = await submitInspection(baseUrl, {
      key: credentials.test_key,
      seed: 'log-failed-inspection',
      scenario: 'fail_at_detect_damage',
    });
    expect(answer.status).toBe(202);
    const inspectionId = answer.body.id as string;
    const failure = await eventually(
      async () =>
        lines().find((l) => l.message === 'inspection execution ended in failure' && l.job_id === inspectionId),
      60_000,
    );
    const transition = lines().find((l) => l.message === 'job transition' && l.job_id === inspectionId)!;
    expect(failure).toMatchObject({
      request_id: answer.headers.get('request-id'),
      org_id: transition.org_id,
      job_id: inspectionId,
    });
  });

  it('an error answered by the adapter itself is logged too, and no line ever holds a secret', async () => {
    const refused = await call(baseUrl, 'GET', '/v1/jobs', { key: 'chk_test_wrongwrongwrongwrongwrongwrong1' });
    expect(refused.status).toBe(401);
    await call(baseUrl, 'GET', '/mgmt/v1/organization', { key: credentials.owner_jwt });
    await eventually(async () =>
      lines().some((l) => l.request_id === refused.headers.get('request-id') && l.status === 401),
    );
    for (const secret of [
      credentials.test_key,
      credentials.live_key,
      credentials.owner_jwt,
      credentials.inference_callback_secret,
      'chk_test_wrongwrong',
    ]) {
      expect(lines().some((l) => JSON.stringify(l).includes(secret))).toBe(false);
    }
  });
});
