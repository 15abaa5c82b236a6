import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isTerminal } from '../../../lambdas/domain/jobs/job.js';
import { dashboardShot, HAS_CHROMIUM, launchChromium } from '../../support/browser.js';
import { call, eventually, formWith, imageFile } from '../../support/http.js';
import { startTestService, type TestService } from '../../support/service.js';
import { uploadFile } from '../../support/uploads.js';

/** Redacting a job from its dashboard page in headless Chromium (Debian's); screenshots under test-artifacts/dashboard/. */
const CAR = readFileSync(resolve(import.meta.dirname, '../../../samples/car.jpg'));
let svc: TestService;
let browser: Browser;
let page: Page;
const dialogs: string[] = [];

beforeAll(async () => {
  if (!HAS_CHROMIUM) return;
  svc = await startTestService();
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.accept();
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await svc?.stop();
});

const shot = (name: string) => dashboardShot(page, name);
const signIn = async (role: 'owner' | 'member') =>
  page.goto(`${svc.baseUrl}/dashboard/login#token=${await svc.issuer.token(svc.org.organization.id, role)}`);

async function objectsOf(jobId: string, ref: string): Promise<string[]> {
  const s3 = await svc.services.clients.s3();
  const orgId = svc.org.organization.id;
  const keys = await Promise.all(
    [`outputs/${orgId}/${jobId}/`, `uploads/${orgId}/${ref}`].map(async (prefix) => {
      const listed = await s3.send(
        new ListObjectsV2Command({ Bucket: svc.services.infrastructure.bucketName, Prefix: prefix }),
      );
      return (listed.Contents ?? []).map((object) => object.Key!);
    }),
  );
  return keys.flat();
}

/** A settled render of the sample car, sent as an upload so the page can draw on it. */
async function renderedCar(): Promise<{ id: string; ref: string }> {
  const ref = await uploadFile(svc.baseUrl, svc.org.testKey, 'image/jpeg', CAR, 'car.jpg');
  const created = await call(svc.baseUrl, 'POST', '/v1/render.background', {
    key: svc.org.testKey,
    json: { input_ref: ref },
  });
  await eventually(async () => isTerminal((await svc.services.jobs.get(created.body.id))?.status ?? 'queued'), 30_000);
  return { id: created.body.id, ref };
}

describe.skipIf(!HAS_CHROMIUM)('redacting a job from the dashboard', () => {
  it('a settled job offers Redact; after a confirmation its files are gone and its page says so', async () => {
    const job = await renderedCar();
    const before = await objectsOf(job.id, job.ref);
    expect(before.length).toBeGreaterThan(1);
    await signIn('owner');
    await page.waitForSelector('#org-id');
    await page.goto(`${svc.baseUrl}/dashboard/jobs/${job.id}`);
    await page.waitForSelector('figure.drawn');
    await page.locator('#redact').scrollIntoViewIfNeeded();
    await shot('job-redaction-offered');

    await page.click('#redact');
    await page.waitForSelector('#redaction-done');
    expect(dialogs.at(-1)).toContain(`Redact ${job.id}?`);
    expect(await page.textContent('#redaction-done')).toMatch(
      new RegExp(`^Redacted .+: ${before.length} files deleted\\.$`),
    );
    expect(await page.textContent('#redacted')).toContain('gone for good');
    expect(await page.textContent('#result')).toContain('redacted');
    expect(await page.locator('#redact').count()).toBe(0);
    expect(await page.textContent('ul.inputs')).toContain('not kept');
    await page.locator('#redaction').scrollIntoViewIfNeeded();
    await shot('job-redaction-done');
    expect(await objectsOf(job.id, job.ref)).toEqual([]);
  });

  it('a job still queued offers nothing; a member who tries is told why, and nothing is deleted', async () => {
    const queued = await call(svc.baseUrl, 'POST', '/v1/plate.read', {
      key: svc.org.liveKey,
      form: formWith('image', [imageFile('dash-queued')]),
    });
    await page.goto(`${svc.baseUrl}/dashboard/jobs/${queued.body.id}`);
    await page.waitForSelector('#job-status');
    expect(await page.locator('#redaction').count()).toBe(0);

    const job = await renderedCar();
    await signIn('member');
    await page.waitForSelector('#org-id');
    await page.goto(`${svc.baseUrl}/dashboard/jobs/${job.id}`);
    await page.click('#redact');
    await page.waitForSelector('#redaction-outcome .error');
    expect(await page.textContent('#redaction-outcome')).toMatch(/admin/);
    await shot('job-redaction-refused');
    expect((await objectsOf(job.id, job.ref)).length).toBeGreaterThan(1);
  });
});
