import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { beforeAll, describe, expect, it } from 'vitest';
import { AisError, createAisClient } from '../../../client/src/index.js';
import { CATALOGUE, modelVersionOf } from '../../../lambdas/domain/catalogue/catalogue.js';
import { isTerminal, type JobRecord } from '../../../lambdas/domain/jobs/job.js';
import { epochSeconds } from '../../../lambdas/domain/kernel/clock.js';
import type { InferencePlane } from '../../../lambdas/domain/ports/jobs.js';
import { runSandboxModel, storeProducedFiles } from '../../../lambdas/sandbox/backend.js';
import { type ApiResponse, call, eventually, expectEnvelope, formWith, imageFile } from '../../support/http.js';
import { submitInspection } from '../../support/inspections.js';
import { expectMoneyInvariants } from '../../support/invariants.js';
import { postSignedCompletion } from '../../support/live-job.js';
import { asRole } from '../../support/management.js';
import { sharedTestService } from '../../support/service.js';
import { uploadFile } from '../../support/uploads.js';

/**
 * `POST /v1/jobs/{id}/redact` (docs/internals/data-retention.md): every object of the job leaves the bucket
 * (listed before and after), its result is null everywhere it was shown and stays null, credits and
 * usage stay as they were. Live jobs run on a plane that accepts and stays silent: the test plays it.
 */
const accepted: string[] = [];

const silentPlane: InferencePlane = {
  submit: async (job) => {
    accepted.push(job.id);
    return true;
  },
};

const svc = sharedTestService({ livePlane: silentPlane });
let orgId: string;
beforeAll(() => {
  orgId = svc.org.organization.id;
});

/** Every key of the bucket under `prefix`. */
async function stored(prefix: string): Promise<string[]> {
  const listed = await (await svc.services.clients.s3()).send(
    new ListObjectsV2Command({ Bucket: svc.services.infrastructure.bucketName, Prefix: prefix }),
  );
  return (listed.Contents ?? []).map((object) => object.Key!).sort();
}

/** Every object stored for these jobs: their folders, and the uploads they consumed. */
async function objectsOf(jobIds: readonly string[], uploads: readonly string[] = []): Promise<string[]> {
  const folders = jobIds.flatMap((id) => [`inputs/${orgId}/${id}/`, `outputs/${orgId}/${id}/`]);
  return (await Promise.all([...folders, ...uploads.map((ref) => `uploads/${orgId}/${ref}`)].map(stored)))
    .flat()
    .sort();
}

const redact = (id: string, key = svc.org.testKey, headers: Record<string, string> = {}) =>
  call(svc.baseUrl, 'POST', `/v1/jobs/${id}/redact`, { key, headers });

async function settledJob(id: string) {
  return eventually(async () => {
    const job = await svc.services.jobs.get(id);
    return job && isTerminal(job.status) ? job : null;
  }, 60_000);
}

async function moneyOf(livemode: boolean) {
  const [balance, ledger, usage] = await Promise.all([
    svc.services.accounts.getBalance(orgId, livemode),
    svc.services.accounts.listLedger({ orgId, livemode, limit: 100 }),
    asRole(svc, 'member', 'GET', `/mgmt/v1/usage?livemode=${livemode}`),
  ]);
  return { balance, ledger: ledger.items, usage: usage.body.data };
}

function expectRedaction(response: ApiResponse, jobId: string, filesDeleted: number): void {
  expect(response.status).toBe(200);
  expect(response.body).toEqual({
    object: 'redaction',
    job_id: jobId,
    redacted_at: expect.any(Number),
    files_deleted: filesDeleted,
  });
}

describe('redacting a settled job', () => {
  it('deletes its multipart inputs and produced files, and its result is null on every read, credits and usage unchanged', async () => {
    const job = await call(svc.baseUrl, 'POST', '/v1/render.background?wait=true', {
      key: svc.org.testKey,
      form: formWith('images', [imageFile('redact-a'), imageFile('redact-b')], { return_cutout: 'true' }),
    });
    expect(job.body).toMatchObject({ status: 'succeeded', result: expect.any(Object) });
    const id = job.body.id as string;
    const before = await objectsOf([id]);
    expect(before.filter((key) => key.startsWith('inputs/'))).toHaveLength(2);
    expect(before.filter((key) => key.startsWith('outputs/')).length).toBeGreaterThanOrEqual(2);
    const money = await moneyOf(false);

    const asked = epochSeconds(svc.clock);
    const redaction = await redact(id);
    expectRedaction(redaction, id, before.length);
    expect(redaction.body.redacted_at).toBeGreaterThanOrEqual(asked);
    expect(redaction.body.redacted_at).toBeLessThanOrEqual(epochSeconds(svc.clock));
    expect(await objectsOf([id])).toEqual([]);

    const read = await call(svc.baseUrl, 'GET', `/v1/jobs/${id}`, { key: svc.org.testKey });
    expect(read.body).toEqual({ ...job.body, result: null });
    const listed = (
      await call(svc.baseUrl, 'GET', '/v1/jobs?endpoint=render.background', { key: svc.org.testKey })
    ).body.data.find((j: { id: string }) => j.id === id);
    expect(listed.result).toBeNull();
    const dashboard = await asRole(svc, 'member', 'GET', `/mgmt/v1/jobs/${id}`);
    expect(dashboard.body.result).toBeNull();
    const inputs = await asRole(svc, 'member', 'GET', `/mgmt/v1/jobs/${id}/inputs`);
    expect(
      inputs.body.data.map((input: { filename: string | null; url: string | null }) => [input.filename, input.url]),
    ).toEqual([
      [null, null],
      [null, null],
    ]);
    // the record keeps what billing and audit need, nothing derived from the images
    const record = (await svc.services.jobs.get(id))!;
    expect(record).toMatchObject({
      result: null,
      files: {},
      params: {},
      redacted_at: redaction.body.redacted_at,
      credits: job.body.credits,
    });
    expect(record.inputs.every((input) => input.sha256 === null && input.filename === null)).toBe(true);

    expect(await moneyOf(false)).toEqual(money);
    await expectMoneyInvariants(svc.services, orgId, false);
  });

  it('deletes the uploads the job consumed', async () => {
    const ref = await uploadFile(
      svc.baseUrl,
      svc.org.testKey,
      'video/mp4',
      Buffer.alloc(4096, 'redact-video'),
      'plate-AB123.mp4',
    );
    const job = await call(svc.baseUrl, 'POST', '/v1/video.onboard', {
      key: svc.org.testKey,
      json: { input_ref: ref },
    });
    expect(job.status).toBe(202);
    await settledJob(job.body.id);
    const before = await objectsOf([job.body.id], [ref]);
    expect(before).toContain(`uploads/${orgId}/${ref}`);

    expectRedaction(await redact(job.body.id), job.body.id, before.length);
    expect(await objectsOf([job.body.id], [ref])).toEqual([]);
  });

  it('a second call answers the first time and deletes nothing more', async () => {
    const job = await call(svc.baseUrl, 'POST', '/v1/plate.read?wait=true', {
      key: svc.org.testKey,
      form: formWith('image', [imageFile('redact-twice')]),
    });
    const first = await redact(job.body.id);
    expectRedaction(first, job.body.id, 0);
    svc.clock.advance(5000);
    const second = await redact(job.body.id);
    expect(second.body).toEqual(first.body);
    // as a replay of the same Idempotency-Key, too
    const keyed = await redact(job.body.id, svc.org.testKey, { 'Idempotency-Key': 'redact-twice-0001' });
    const replay = await redact(job.body.id, svc.org.testKey, { 'Idempotency-Key': 'redact-twice-0001' });
    expect([keyed.body, replay.body, replay.headers.get('idempotent-replayed')]).toEqual([
      first.body,
      first.body,
      'true',
    ]);
  });

  it('a failed or canceled job can be redacted too', async () => {
    const failed = await call(svc.baseUrl, 'POST', '/v1/plate.read?wait=true', {
      key: svc.org.testKey,
      form: formWith('image', [imageFile('redact-failed')]),
      headers: { 'X-Svc-Test-Scenario': 'model_error' },
    });
    expect(failed.body.status).toBe('failed');
    expectRedaction(await redact(failed.body.id), failed.body.id, 0);
    expect((await call(svc.baseUrl, 'GET', `/v1/jobs/${failed.body.id}`, { key: svc.org.testKey })).body).toEqual(
      failed.body,
    );
  });

  it('takes the result out of the stored events, and out of a replayed wait=true answer', async () => {
    const headers = { 'Idempotency-Key': 'redact-events-replay-1' };
    const form = () => formWith('image', [imageFile('redact-events')]);
    const job = await call(svc.baseUrl, 'POST', '/v1/plate.read?wait=true', {
      key: svc.org.testKey,
      form: form(),
      headers,
    });
    expect(job.body.result).not.toBeNull();
    const events = async () =>
      (await asRole(svc, 'admin', 'GET', `/mgmt/v1/events?job_id=${job.body.id}`)).body.data as Array<{
        id: string;
        data: { job: { result: unknown } };
      }>;
    const [event] = await events();
    expect(event!.data.job.result).not.toBeNull();

    expectRedaction(await redact(job.body.id), job.body.id, 0);
    expect((await events()).map((e) => e.data.job.result)).toEqual([null]);
    expect((await asRole(svc, 'admin', 'GET', `/mgmt/v1/events/${event!.id}`)).body.data.job).toEqual({
      ...job.body,
      result: null,
    });
    const replay = await call(svc.baseUrl, 'POST', '/v1/plate.read?wait=true', {
      key: svc.org.testKey,
      form: form(),
      headers,
    });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual({ ...job.body, result: null });
  });
});

describe('an inspection', () => {
  it('is redacted with its stage jobs: every stage file and upload goes, stage results too; a stage alone is refused', async () => {
    const created = await submitInspection(svc.baseUrl, { key: svc.org.testKey, photos: 2, seed: 'redact-inspection' });
    expect(created.status).toBe(202);
    const inspection = await settledJob(created.body.id);
    expect(inspection.status).toBe('succeeded');
    const stageJobs = inspection.stages!.flatMap((stage) => (stage.job_id ? [stage.job_id] : []));
    expect(stageJobs.length).toBeGreaterThan(0);
    const uploads = inspection.inputs.map((input) => input.object_key.split('/').at(-1)!);
    const before = await objectsOf([inspection.id, ...stageJobs], uploads);
    expect(before.filter((key) => key.startsWith('uploads/'))).toHaveLength(3);
    expect(before.some((key) => key.startsWith('outputs/'))).toBe(true);

    const stage = await redact(stageJobs[0]!);
    expectEnvelope(stage, 409, 'conflict', 'job_not_redactable', 'id');
    expect(stage.body.error.message).toContain(inspection.id);

    expectRedaction(await redact(inspection.id), inspection.id, before.length);
    expect(await objectsOf([inspection.id, ...stageJobs], uploads)).toEqual([]);
    const read = (await call(svc.baseUrl, 'GET', `/v1/jobs/${inspection.id}`, { key: svc.org.testKey })).body;
    expect(read.result).toBeNull();
    expect(read.stages.every((s: Record<string, unknown>) => !('result' in s))).toBe(true);
    for (const id of stageJobs)
      expect((await svc.services.jobs.get(id))!).toMatchObject({
        result: null,
        files: {},
        redacted_at: expect.any(Number),
      });
  });
});

describe('what cannot be redacted', () => {
  it('a job not settled yet: 409 job_not_redactable, and nothing changes', async () => {
    const job = await call(svc.baseUrl, 'POST', '/v1/plate.read', {
      key: svc.org.liveKey,
      form: formWith('image', [imageFile('redact-running')]),
    });
    await eventually(async () => accepted.includes(job.body.id));
    const before = await objectsOf([job.body.id]);
    expect(before).toHaveLength(1);
    const refused = await redact(job.body.id, svc.org.liveKey);
    expectEnvelope(refused, 409, 'conflict', 'job_not_redactable', 'id');
    expect(refused.body.error.message).toMatch(/processing|queued/);
    expect(await objectsOf([job.body.id])).toEqual(before);
    expect((await svc.services.jobs.get(job.body.id))!.redacted_at).toBeUndefined();
  });

  it('another mode’s job is not found; another organisation’s job is not theirs', async () => {
    const job = await call(svc.baseUrl, 'POST', '/v1/plate.read?wait=true', {
      key: svc.org.testKey,
      form: formWith('image', [imageFile('redact-mode')]),
    });
    expectEnvelope(await redact(job.body.id, svc.org.liveKey), 404, 'not_found', 'job_not_found', 'id');
    expectEnvelope(await redact(job.body.id, svc.otherOrg.testKey), 403, 'permission', 'scope_not_granted');
    expectEnvelope(await redact('job_doesNotExist11'), 404, 'not_found', 'job_not_found', 'id');
    expect(
      (await call(svc.baseUrl, 'GET', `/v1/jobs/${job.body.id}`, { key: svc.org.testKey })).body.result,
    ).not.toBeNull();
  });
});

describe('a live job redacted, then reported again by the inference plane', () => {
  /** What the plane does: writes the files its model produced under the job's folder, then reports the result. */
  async function report(job: JobRecord): Promise<ApiResponse> {
    const output = (await runSandboxModel(job))!;
    await storeProducedFiles(svc.services.objects, job, output.files);
    const raw = JSON.stringify({
      job_id: job.id,
      status: 'succeeded',
      model_version: modelVersionOf(CATALOGUE[job.endpoint]),
      result: output.result,
    });
    return postSignedCompletion(svc, raw);
  }

  it('keeps its result null and deletes the files the late report brought', async () => {
    const created = await call(svc.baseUrl, 'POST', '/v1/render.background', {
      key: svc.org.liveKey,
      form: formWith('images', [imageFile('redact-live')]),
    });
    const job = await eventually(async () => {
      const record = await svc.services.jobs.get(created.body.id);
      return record?.status === 'processing' ? record : null;
    });
    expect((await report(job)).body).toMatchObject({ received: true, status: 'succeeded' });
    const settled = await call(svc.baseUrl, 'GET', `/v1/jobs/${job.id}`, { key: svc.org.liveKey });
    expect(settled.body.result).not.toBeNull();
    const before = await objectsOf([job.id]);
    expect(before.filter((key) => key.startsWith('outputs/')).length).toBeGreaterThan(0);
    const live = await moneyOf(true);

    expectRedaction(await redact(job.id, svc.org.liveKey), job.id, before.length);
    expect(await objectsOf([job.id])).toEqual([]);

    const late = await report(job);
    expect(late.status).toBe(200);
    expect(late.body).toMatchObject({ received: true, status: 'succeeded' });
    expect(await objectsOf([job.id])).toEqual([]);
    svc.clock.advance(1100); // one poll a second per job
    expect((await call(svc.baseUrl, 'GET', `/v1/jobs/${job.id}`, { key: svc.org.liveKey })).body).toEqual({
      ...settled.body,
      result: null,
    });
    expect(await moneyOf(true)).toEqual(live);
    await expectMoneyInvariants(svc.services, orgId, true);
  });
});

describe('from the dashboard', () => {
  it('an admin redacts a job of either mode; a member may not', async () => {
    const job = await call(svc.baseUrl, 'POST', '/v1/plate.read?wait=true', {
      key: svc.org.testKey,
      form: formWith('image', [imageFile('redact-dashboard')]),
    });
    expectEnvelope(
      await asRole(svc, 'member', 'POST', `/mgmt/v1/jobs/${job.body.id}/redact`),
      403,
      'permission',
      'scope_not_granted',
    );
    const redaction = await asRole(svc, 'admin', 'POST', `/mgmt/v1/jobs/${job.body.id}/redact`);
    expectRedaction(redaction, job.body.id, 0);
    expect((await asRole(svc, 'admin', 'GET', `/mgmt/v1/jobs/${job.body.id}`)).body.result).toBeNull();
    expectEnvelope(
      await asRole(svc, 'admin', 'POST', `/mgmt/v1/jobs/${job.body.id}/redact`, { org: svc.otherOrg }),
      403,
      'permission',
      'scope_not_granted',
    );
  });
});

describe('the typed client', () => {
  it('jobs.redact answers the redaction; a job still running is an AisError with code job_not_redactable', async () => {
    const client = createAisClient({ baseUrl: svc.baseUrl, apiKey: svc.org.testKey });
    const job = await client.run('plate.read', { files: { image: imageFile('redact-client') }, wait: true });
    const redaction = await client.jobs.redact(job.id);
    expect(redaction).toEqual({
      object: 'redaction',
      job_id: job.id,
      redacted_at: expect.any(Number),
      files_deleted: 0,
    });
    expect((await client.getJob(job.id)).result).toBeNull();

    const live = createAisClient({ baseUrl: svc.baseUrl, apiKey: svc.org.liveKey });
    const running = await live.createJob('plate.read', { files: { image: imageFile('redact-client-live') } });
    const refused = await live.jobs.redact(running.id).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AisError);
    expect((refused as AisError).code).toBe('job_not_redactable');
  });
});
