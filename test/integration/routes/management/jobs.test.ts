import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { loadOrCreateSigningKey, SIGNING_KEY_FILENAME } from '../../../../local/local-issuer.js';
import { call, eventually, expectEnvelope, formWith, imageFile } from '../../../support/http.js';
import { download } from '../../../support/images.js';
import { submitInspection } from '../../../support/inspections.js';
import { asRole } from '../../../support/management.js';
import { sharedTestService } from '../../../support/service.js';
import { uploadFile } from '../../../support/uploads.js';

/** What the dashboard's pages need from the management surface beyond the listing calls, and the sign-in link. */
const svc = sharedTestService();

async function inputsOf(jobId: string) {
  const response = await asRole(svc, 'member', 'GET', `/mgmt/v1/jobs/${jobId}/inputs`);
  expect(response.status).toBe(200);
  return response.body;
}

describe('GET /mgmt/v1/jobs/{id}/inputs', () => {
  it('signs a kept input: a live multipart image downloads as the bytes sent', async () => {
    const image = imageFile('inputs-live', 'image/png');
    const job = await call(svc.baseUrl, 'POST', '/v1/plate.read', {
      key: svc.org.liveKey,
      form: formWith('image', [image], {}),
    });
    expect(job.status).toBe(202);
    const inputs = await inputsOf(job.body.id);
    expect(inputs).toMatchObject({
      object: 'list',
      has_more: false,
      data: [{ object: 'job_input', index: 0, size_bytes: image.size, expires_at: expect.any(Number) }],
    });
    const fetched = await download(inputs.data[0].url);
    expect(fetched.status).toBe(200);
    expect(fetched.bytes.equals(Buffer.from(await image.arrayBuffer()))).toBe(true);
  });

  it('signs an uploaded input (input_ref), test mode included', async () => {
    const ref = await uploadFile(
      svc.baseUrl,
      svc.org.testKey,
      'video/mp4',
      Buffer.alloc(4096, 'inputs-video'),
      'walkaround.mp4',
    );
    const job = await call(svc.baseUrl, 'POST', '/v1/video.onboard', {
      key: svc.org.testKey,
      json: { input_ref: ref },
    });
    const [input] = (await inputsOf(job.body.id)).data;
    expect(input).toMatchObject({ filename: 'walkaround.mp4', content_type: 'video/mp4', size_bytes: 4096 });
    expect((await download(input.url)).status).toBe(200);
  });

  it('answers url null for a test-mode multipart input whose bytes were not kept, never a URL that 404s', async () => {
    const job = await call(svc.baseUrl, 'POST', '/v1/plate.read', {
      key: svc.org.testKey,
      form: formWith('image', [imageFile('inputs-test')]),
    });
    const [input] = (await inputsOf(job.body.id)).data;
    expect(input).toMatchObject({ index: 0, content_type: 'image/jpeg', url: null, expires_at: null });
  });

  it("refuses another organisation's job (403) and an unknown one (404)", async () => {
    const job = await call(svc.baseUrl, 'POST', '/v1/plate.read', {
      key: svc.org.testKey,
      form: formWith('image', [imageFile('inputs-other')]),
    });
    expectEnvelope(
      await asRole(svc, 'owner', 'GET', `/mgmt/v1/jobs/${job.body.id}/inputs`, { org: svc.otherOrg }),
      403,
      'permission',
      'scope_not_granted',
    );
    expectEnvelope(
      await asRole(svc, 'owner', 'GET', '/mgmt/v1/jobs/job_1111111111111111111111/inputs'),
      404,
      'not_found',
      'job_not_found',
      'id',
    );
  });
});

describe('GET /mgmt/v1/jobs?top_level=true', () => {
  it("leaves out an inspection's stage jobs, which the unfiltered history and the inspection's stages still name", async () => {
    const inspection = (await submitInspection(svc.baseUrl, { key: svc.org.testKey, seed: 'top-level' })).body
      .id as string;
    await eventually(async () => (await svc.services.jobs.get(inspection))?.status === 'succeeded', 60_000);
    const stageJobs = (
      (await asRole(svc, 'member', 'GET', `/mgmt/v1/jobs/${inspection}`)).body.stages as Array<{
        job_id: string | null;
      }>
    )
      .map((stage) => stage.job_id)
      .filter((id): id is string => id !== null);
    expect(stageJobs.length).toBeGreaterThan(0);
    const everything = (await asRole(svc, 'member', 'GET', '/mgmt/v1/jobs?limit=100')).body.data.map(
      (job: { id: string }) => job.id,
    );
    expect(everything).toEqual(expect.arrayContaining([inspection, ...stageJobs]));
    const topLevel = await asRole(svc, 'member', 'GET', '/mgmt/v1/jobs?limit=2&top_level=true');
    expect(topLevel.body.data.map((job: { id: string }) => job.id)).toContain(inspection);
    const all = (await asRole(svc, 'member', 'GET', '/mgmt/v1/jobs?limit=100&top_level=true')).body.data.map(
      (job: { id: string }) => job.id,
    );
    for (const id of stageJobs) expect(all).not.toContain(id);
    expectEnvelope(
      await asRole(svc, 'member', 'GET', '/mgmt/v1/jobs?top_level=yes'),
      400,
      'invalid_request',
      'parameter_invalid',
      'top_level',
    );
  });
});

describe('a short-lived API key (expires_in_seconds)', () => {
  it('works until its expires_at, then is refused like a revoked key', async () => {
    const created = await asRole(svc, 'admin', 'POST', '/mgmt/v1/api-keys', {
      json: { name: 'playground', livemode: false, expires_in_seconds: 120 },
    });
    expect(created.status).toBe(201);
    expect(created.body.expires_at).toBe(created.body.created + 120);
    expect((await call(svc.baseUrl, 'GET', '/v1/jobs', { key: created.body.secret })).status).toBe(200);
    svc.clock.advance(121_000);
    expectEnvelope(
      await call(svc.baseUrl, 'GET', '/v1/jobs', { key: created.body.secret }),
      401,
      'authentication',
      'invalid_api_key',
    );
  });

  it('refuses a lifetime under a minute or over 30 days', async () => {
    for (const seconds of [59, 30 * 24 * 3600 + 1]) {
      const refused = await asRole(svc, 'admin', 'POST', '/mgmt/v1/api-keys', {
        json: { name: 'x', livemode: false, expires_in_seconds: seconds },
      });
      expectEnvelope(refused, 400, 'invalid_request', 'parameter_invalid', 'expires_in_seconds');
    }
  });
});

describe('npm run token -- --link', () => {
  it('prints a dashboard sign-in link carrying a fresh token in the fragment', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'ais-token-'));
    try {
      // npm start's home, and .local/credentials.json naming it
      mkdirSync(join(cwd, '.local', 'start'), { recursive: true });
      await loadOrCreateSigningKey(join(cwd, '.local', 'start', SIGNING_KEY_FILENAME));
      for (const file of [join(cwd, '.local', 'credentials.json'), join(cwd, '.local', 'start', 'credentials.json')])
        writeFileSync(file, JSON.stringify({ base_url: 'http://127.0.0.1:3999', org_id: 'org_TokenLink' }));
      const repo = resolve(import.meta.dirname, '../../../..');
      const { stdout } = await promisify(execFile)(
        process.execPath,
        [
          '--import',
          pathToFileURL(join(repo, 'node_modules/tsx/dist/loader.mjs')).href,
          join(repo, 'local/token-cli.ts'),
          '--link',
          '--role',
          'admin',
        ],
        { cwd },
      );
      const link = stdout.trim();
      expect(link).toMatch(/^http:\/\/127\.0\.0\.1:3999\/dashboard\/login#token=ey[\w-]+\.[\w-]+\.[\w-]+$/);
      expect(decodeJwt(link.split('#token=')[1]!)).toMatchObject({ org_id: 'org_TokenLink', role: 'admin' });
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});
