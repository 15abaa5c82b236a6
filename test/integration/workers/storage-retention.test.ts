import { ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { beforeAll, describe, expect, it } from 'vitest';
import { type SeededOrganization, setStorageRetention } from '../../../lambdas/domain/access/organizations.js';
import { enforceRetention } from '../../../lambdas/domain/erasure/retention.js';
import { isTerminal } from '../../../lambdas/domain/jobs/job.js';
import { timeOrderedId } from '../../../lambdas/domain/kernel/ids.js';
import { call, eventually, formWith, imageFile } from '../../support/http.js';
import { asRole } from '../../support/management.js';
import { sharedTestService, type TestService } from '../../support/service.js';
import { uploadFile } from '../../support/uploads.js';

/**
 * Retention (docs/internals/data-retention.md): the sweeper's retention pass deletes each organisation's
 * files older than its `storage_retention_days` and redacts its older jobs, exactly those and
 * nothing newer. Two organisations, retention 1 day and 3 days; the test moves the clock.
 */
const DAY = 86_400_000;
let svc: TestService;
let oneDay: SeededOrganization;
let threeDays: SeededOrganization;

/** Every object of the organisation, in key order. */
async function objectsOf(org: SeededOrganization): Promise<string[]> {
  const s3 = await svc.services.clients.s3();
  const keys: string[] = [];
  for (const folder of ['inputs', 'outputs', 'uploads']) {
    const listed = await s3.send(
      new ListObjectsV2Command({
        Bucket: svc.services.infrastructure.bucketName,
        Prefix: `${folder}/${org.organization.id}/`,
      }),
    );
    keys.push(...(listed.Contents ?? []).map((object) => object.Key!));
  }
  return keys.sort();
}

/** Every job of the organisation in one mode and its result, by id (the list has no per-job polling limit). */
async function resultsOf(org: SeededOrganization, livemode = false): Promise<Map<string, unknown>> {
  const page = await call(svc.baseUrl, 'GET', '/v1/jobs?limit=100', { key: livemode ? org.liveKey : org.testKey });
  return new Map((page.body.data as Array<{ id: string; result: unknown }>).map((job) => [job.id, job.result]));
}

async function settled(id: string) {
  return eventually(async () => {
    const job = await svc.services.jobs.get(id);
    return job && isTerminal(job.status) ? job : null;
  }, 30_000);
}

interface DataSet {
  /** jobs that succeeded with a result */
  jobs: string[];
  /** the objects they, and the rest of the set, added to the bucket */
  objects: string[];
}

/**
 * What one organisation stores at the clock's current time: a render job (multipart inputs kept,
 * files produced), a JSON-only pricing job (a result, no file), the files of an admission that
 * was refused (no job owns them), and, while the clock is real (presigned URLs are signed with it),
 * a video job through an upload and an upload never used.
 */
async function storeDataSet(org: SeededOrganization, options: { uploads: boolean }): Promise<DataSet> {
  const before = new Set(await objectsOf(org));
  const render = await call(svc.baseUrl, 'POST', '/v1/render.background?wait=true', {
    key: org.testKey,
    form: formWith('images', [imageFile(`retention-${Math.random()}`)], { return_cutout: 'true' }),
  });
  const pricing = await call(svc.baseUrl, 'POST', '/v1/pricing.vehicle?wait=true', {
    key: org.testKey,
    json: { vin: '1HGCM82633A004352', mileage_km: 84000 },
  });
  const jobs = [render.body.id as string, pricing.body.id as string];
  const refusedAdmission = `inputs/${org.organization.id}/${timeOrderedId('job', svc.clock.nowMs())}/0`;
  await (await svc.services.clients.s3()).send(
    new PutObjectCommand({
      Bucket: svc.services.infrastructure.bucketName,
      Key: refusedAdmission,
      Body: Buffer.from('jpeg'),
    }),
  );
  if (options.uploads) {
    const ref = await uploadFile(
      svc.baseUrl,
      org.testKey,
      'video/mp4',
      Buffer.alloc(4096, `retention-video-${Math.random()}`),
      'walkaround.mp4',
    );
    const video = await call(svc.baseUrl, 'POST', '/v1/video.onboard', { key: org.testKey, json: { input_ref: ref } });
    await settled(video.body.id);
    jobs.push(video.body.id);
    await uploadFile(
      svc.baseUrl,
      org.testKey,
      'image/jpeg',
      Buffer.alloc(2048, `retention-unused-${Math.random()}`),
      'never-used.jpg',
    );
  }
  for (const id of jobs) expect((await settled(id)).status).toBe('succeeded');
  return { jobs, objects: (await objectsOf(org)).filter((key) => !before.has(key)) };
}

function expectResults(results: Map<string, unknown>, set: DataSet, kept: boolean): void {
  for (const id of set.jobs) {
    expect(results.has(id), `${id} is listed`).toBe(true);
    if (kept) expect(results.get(id), `${id} keeps its result`).not.toBeNull();
    else expect(results.get(id), `${id} lost its result`).toBeNull();
  }
}

describe('storage retention, enforced by the sweeper, for two organisations of 1 and 3 days', () => {
  const shared = sharedTestService();
  beforeAll(async () => {
    svc = shared;
    [oneDay, threeDays] = [svc.org, svc.otherOrg];
    await setStorageRetention(svc.services, oneDay.organization.id, 1);
    await setStorageRetention(svc.services, threeDays.organization.id, 3);
  });

  it('deletes exactly what is older than each one’s retention and nothing newer, pass after pass (day 2.5, day 3.5)', async () => {
    // day 0 and day 2 for both, and for the one-day organisation a set either side of its first cutoff (day 1.5) by a minute
    const dayZero = {
      one: await storeDataSet(oneDay, { uploads: true }),
      three: await storeDataSet(threeDays, { uploads: true }),
    };
    for (const set of Object.values(dayZero))
      expect(set.objects.filter((key) => key.startsWith('uploads/'))).toHaveLength(2);
    svc.clock.advance(1.5 * DAY - 60_000);
    const justOlder = await storeDataSet(oneDay, { uploads: false });
    svc.clock.advance(120_000);
    const justNewer = await storeDataSet(oneDay, { uploads: false });
    svc.clock.advance(0.5 * DAY - 60_000);
    const dayTwo = {
      one: await storeDataSet(oneDay, { uploads: false }),
      three: await storeDataSet(threeDays, { uploads: false }),
    };
    expect((await asRole(svc, 'member', 'GET', '/mgmt/v1/organization')).body.storage_retention_days).toBe(1);

    // day 2.5: the one-day organisation loses exactly what is older than a day; the three-day one nothing
    svc.clock.advance(0.5 * DAY);
    const [oneBefore, threeBefore] = [await objectsOf(oneDay), await objectsOf(threeDays)];
    // out of time before the first step (a Lambda near its timeout): nothing is done, and it says so
    expect(await enforceRetention(svc.services, { goOn: () => false })).toEqual({
      organizations: 0,
      jobsRedacted: 0,
      filesDeleted: 0,
      complete: false,
    });
    expect(await objectsOf(oneDay)).toEqual(oneBefore);
    const balances = await Promise.all(
      [oneDay, threeDays].map((org) => svc.services.accounts.getBalance(org.organization.id, false)),
    );

    const deleted = [...dayZero.one.objects, ...justOlder.objects];
    expect(await svc.sweeper.enforceRetention()).toEqual({
      organizations: 2,
      jobsRedacted: dayZero.one.jobs.length + justOlder.jobs.length,
      filesDeleted: deleted.length,
      complete: true,
    });
    expect(await objectsOf(oneDay)).toEqual(oneBefore.filter((key) => !deleted.includes(key)));
    expect(await objectsOf(oneDay)).toEqual([...justNewer.objects, ...dayTwo.one.objects].sort());
    expect(await objectsOf(threeDays)).toEqual(threeBefore);
    const oneResults = await resultsOf(oneDay);
    expectResults(oneResults, dayZero.one, false);
    expectResults(oneResults, justOlder, false);
    expectResults(oneResults, justNewer, true);
    expectResults(oneResults, dayTwo.one, true);
    const threeResults = await resultsOf(threeDays);
    expectResults(threeResults, dayZero.three, true);
    expectResults(threeResults, dayTwo.three, true);
    // credits and the ledger are not retention's business
    expect(
      await Promise.all([oneDay, threeDays].map((org) => svc.services.accounts.getBalance(org.organization.id, false))),
    ).toEqual(balances);
    // a second pass finds nothing left to do
    expect(await svc.sweeper.enforceRetention()).toEqual({
      organizations: 2,
      jobsRedacted: 0,
      filesDeleted: 0,
      complete: true,
    });

    // day 3.5: the three-day organisation loses day 0, the one-day organisation day 2; nothing newer goes
    svc.clock.advance(DAY);
    const gone = [dayZero.three, dayTwo.one, justNewer];
    expect(await svc.sweeper.enforceRetention()).toEqual({
      organizations: 2,
      jobsRedacted: gone.reduce((sum, set) => sum + set.jobs.length, 0),
      filesDeleted: gone.reduce((sum, set) => sum + set.objects.length, 0),
      complete: true,
    });
    expect(await objectsOf(oneDay)).toEqual([]);
    expect(await objectsOf(threeDays)).toEqual(dayTwo.three.objects);
    expectResults(await resultsOf(oneDay), dayTwo.one, false);
    const afterResults = await resultsOf(threeDays);
    expectResults(afterResults, dayZero.three, false);
    expectResults(afterResults, dayTwo.three, true);
  }, 180_000);
});

describe('storage retention and a job that has not settled', () => {
  // no worker: a job stays queued (however far the clock moves) until the sweeper expires it
  const shared = sharedTestService({ workerPaused: true });
  beforeAll(async () => {
    svc = shared;
    oneDay = svc.org;
    await setStorageRetention(svc.services, oneDay.organization.id, 1);
  });

  it('a job still unsettled past the retention keeps its files until it settles; the next pass takes them', async () => {
    const live = await call(svc.baseUrl, 'POST', '/v1/render.background', {
      key: oneDay.liveKey,
      form: formWith('images', [imageFile('retention-live')]),
    });
    expect(live.status).toBe(202);
    const files = await objectsOf(oneDay);
    expect(files).toEqual([`inputs/${oneDay.organization.id}/${live.body.id}/0`]);
    svc.clock.advance(2 * DAY);

    await svc.sweeper.enforceRetention();
    expect(await objectsOf(oneDay)).toEqual(files);
    const unsettled = (await svc.services.jobs.get(live.body.id))!;
    expect([unsettled.status, unsettled.redacted_at]).toEqual(['queued', undefined]);

    expect((await svc.sweeper.sweep())?.expired).toBeGreaterThanOrEqual(1);
    expect(await svc.sweeper.enforceRetention()).toMatchObject({ jobsRedacted: 1, filesDeleted: 1 });
    expect(await objectsOf(oneDay)).toEqual([]);
    expect((await svc.services.jobs.get(live.body.id))!.redacted_at).toBeDefined();
  });
});
