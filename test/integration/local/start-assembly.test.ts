import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Rng } from '../../../lambdas/sandbox/prng.js';
import { freePort } from '../../../local/stand-ins/free-port.js';
import { defineE2eSuite } from '../../e2e/suite.js';
import { createBatchOf, finishedBatch, vin } from '../../support/batches.js';
import { call, eventually, formWith } from '../../support/http.js';
import { submitInspection } from '../../support/inspections.js';
import { type NpmStart, npmRun, scratchCopy, stopNpmStarts } from '../../support/npm-start.js';
import { plateScene, randomPlate } from '../../support/rendered-text.js';

/**
 * `npm run start:assembly` as a user runs it on a fresh checkout: it synthesises the cloud
 * assembly (what `cdk deploy` would upload) and serves the service from its bundles, and the
 * black-box suite (test/e2e) must pass against it. `AIS_ASSEMBLY=<dir>` reuses an assembly
 * synthesised before (`npm run start:assembly` writes cdk.out) instead of synthesising again.
 */
let started: NpmStart;
let credentials: Record<string, string>;
let outputs: Record<string, string>;

/** synth, then start, on a shared two-core machine */
const START_TIMEOUT_MS = 900_000;

beforeAll(async () => {
  const reuse = process.env.AIS_ASSEMBLY;
  const port = await freePort();
  started = npmRun(
    ['run', 'start:assembly', '--', ...(reuse ? ['--assembly', reuse] : [])],
    { PORT: String(port), S3_PORT: String(await freePort()), LOG_LEVEL: 'WARN' },
    scratchCopy(['cdk.out']),
  );
  const t0 = Date.now();
  await eventually(
    async () => {
      if (started.npm.exitCode !== null)
        throw new Error(`start:assembly exited with ${started.npm.exitCode}:\n${started.output()}`);
      return started.output().includes('listening on');
    },
    START_TIMEOUT_MS,
    250,
  );
  const timings = started
    .output()
    .split('\n')
    .filter((line) => /Synthesised in|Runtime started in|listening on/.test(line));
  console.log(`start:assembly ready after ${((Date.now() - t0) / 1000).toFixed(1)} s: ${timings.join(' | ')}`);
  credentials = JSON.parse(readFileSync(join(started.dir, '.local', 'credentials.json'), 'utf8'));
  outputs = JSON.parse(readFileSync(join(started.dir, '.local', 'assembly', 'outputs.json'), 'utf8'));
}, START_TIMEOUT_MS + 30_000);

afterAll(stopNpmStarts);

defineE2eSuite(() => ({ baseUrl: credentials.base_url!, testKey: credentials.test_key! }));

describe('the bundles of the cloud assembly, beyond the black-box suite', () => {
  it("prints npm start's JSON, writes it to .local/credentials.json and its own home, and makes the stack's outputs local", () => {
    expect(Object.keys(credentials).sort()).toEqual([
      'admin_jwt',
      'base_url',
      'inference_callback_secret',
      'live_key',
      'member_jwt',
      'org_id',
      'owner_jwt',
      'test_key',
    ]);
    expect(started.output()).toContain(JSON.stringify(credentials, null, 2));
    // its own home keeps its credentials apart from npm start's (.local/start/)
    expect(JSON.parse(readFileSync(join(started.dir, '.local', 'assembly', 'credentials.json'), 'utf8'))).toEqual(
      credentials,
    );
    expect(outputs.ApiUrl).toBe(`${credentials.base_url}/`);
    expect(outputs.ReferencePlaneUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(outputs.TableName).toMatch(/^AutomotiveInferenceStack-DataTable/);
  });

  it('reads a live plate through the deployed reference plane: table stream, work queue, plane URL, its queue, the signed callback', async () => {
    // the plane's OCR engine runs from the files its package carries (OCR_ASSETS_DIR under LAMBDA_TASK_ROOT)
    const plate = randomPlate(Rng.fromParts('start-assembly-plate'));
    const scene = await plateScene(plate, Rng.fromParts('start-assembly-scene'));
    const admitted = await call(credentials.base_url!, 'POST', '/v1/plate.read', {
      key: credentials.live_key!,
      form: formWith('image', [new Blob([scene.png], { type: 'image/png' })]),
    });
    expect(admitted.status, JSON.stringify(admitted.body)).toBe(202);
    const settled = await eventually(
      async () => {
        const job = await call(credentials.base_url!, 'GET', `/v1/jobs/${admitted.body.id}`, {
          key: credentials.live_key!,
        });
        return ['succeeded', 'failed', 'expired'].includes(job.body.status) ? job.body : null;
      },
      90_000,
      1_100,
    );
    expect(settled, JSON.stringify(settled)).toMatchObject({ status: 'succeeded', livemode: true });
    expect(settled.result.plates.map((read: { text: string }) => read.text)).toEqual([plate]);
    expect(settled.credits.charged).toBeGreaterThan(0);
  }, 120_000);

  it("runs an inspection on the template's state machine, every stage a bundled function", async () => {
    const created = await submitInspection(credentials.base_url!, { key: credentials.test_key!, seed: 'assembly' });
    expect(created.status, JSON.stringify(created.body)).toBe(202);
    const settled = await eventually(
      async () => {
        const job = await call(credentials.base_url!, 'GET', `/v1/jobs/${created.body.id}`, {
          key: credentials.test_key!,
        });
        return ['succeeded', 'failed'].includes(job.body.status) ? job.body : null;
      },
      90_000,
      1_100,
    );
    expect(settled.status).toBe('succeeded');
    expect(settled.stages.map((stage: { status: string }) => stage.status)).toEqual(Array(8).fill('succeeded'));
  });

  it("runs a batch on the template's batch state machine: its Distributed Map over the uploaded file, line by line", async () => {
    const lines = [0, 1, 2].map((n) => ({ custom_id: `line-${n}`, params: { vin: vin(n) } }));
    const created = await createBatchOf(credentials.base_url!, credentials.test_key!, 'pricing.vehicle', [
      ...lines,
      { custom_id: 'short-vin', params: { vin: 'short' } },
    ]);
    expect(created.status, JSON.stringify(created.body)).toBe(202);
    const batch = await finishedBatch(credentials.base_url!, credentials.test_key!, created.body.id, 90_000);
    expect(batch).toMatchObject({ status: 'succeeded', counts: { total: 4, succeeded: 3, failed: 1 } });
  }, 120_000);

  it('serves the management surface to the printed token (the local issuer stands in for the JWT issuer), and the site from the assembly', async () => {
    const organization = await call(credentials.base_url!, 'GET', '/mgmt/v1/organization', {
      key: credentials.owner_jwt!,
    });
    expect(organization.body).toMatchObject({ id: credentials.org_id, object: 'organization' });
    const s3StandIn = JSON.parse(readFileSync(join(started.dir, '.local', 'assembly', 'stand-ins.json'), 'utf8'))
      .s3 as string;
    for (const path of ['/docs', '/dashboard/jobs']) {
      const page = await fetch(`${credentials.base_url}${path}`);
      expect(page.status, path).toBe(200);
      expect(page.headers.get('content-type'), path).toMatch(/^text\/html/);
      // the distribution's response headers policy, the signed-URL hosts it names made the S3 stand-in's
      expect(page.headers.get('content-security-policy'), path).toContain(`img-src 'self' data: ${s3StandIn}`);
      expect(page.headers.get('strict-transport-security'), path).toMatch(/^max-age=\d+/);
    }
    const answer = await fetch(`${credentials.base_url}/v1/endpoints`, {
      headers: { Authorization: `Bearer ${credentials.test_key}` },
    });
    expect(answer.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
  });

  it('passes plane:check against the reference plane it deployed', async () => {
    const check = npmRun(['run', 'plane:check', '--', '--url', outputs.ReferencePlaneUrl!], {}, started.dir);
    const code = await new Promise<number | null>((done) => check.npm.on('exit', done));
    expect(code, check.output()).toBe(0);
    expect(check.output()).toMatch(/PASS: all \d+ checks passed/);
    expect(check.output()).not.toContain('FAIL');
  }, 120_000);
});
