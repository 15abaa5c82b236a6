import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { axeSummary, axeViolations } from '../../support/axe.js';
import { createBatchOf, finishedBatch } from '../../support/batches.js';
import { dashboardShot, HAS_CHROMIUM, launchChromium } from '../../support/browser.js';
import { call, eventually, formWith, imageFile } from '../../support/http.js';
import { submitInspection } from '../../support/inspections.js';
import { Receiver } from '../../support/receiver.js';
import { startTestService, type TestService } from '../../support/service.js';
import { uploadFile } from '../../support/uploads.js';

/**
 * Every page and action of the dashboard in headless Chromium (Debian's), under the pages'
 * Content-Security-Policy the server sends (and failing on any violation of it); screenshots
 * under test-artifacts/dashboard/.
 */
const ROOT = resolve(import.meta.dirname, '../../..');
const CAR = readFileSync(resolve(ROOT, 'samples/car.jpg'));
let svc: TestService;
let browser: Browser;
let page: Page;
let receiver: Receiver;
const violations: string[] = [];
const jobs = {} as Record<'plate' | 'damage' | 'segment' | 'render' | 'failed' | 'multipart', string>;
let inspectionId: string;

/** A test job whose input is kept (sent as an upload), so the dashboard can draw on it. */
async function jobOnTheCar(endpoint: string, params: Record<string, unknown> = {}, scenario?: string): Promise<string> {
  const ref = await uploadFile(svc.baseUrl, svc.org.testKey, 'image/jpeg', CAR, 'car.jpg');
  const response = await call(svc.baseUrl, 'POST', `/v1/${endpoint}`, {
    key: svc.org.testKey,
    json: { input_ref: ref, ...params },
    ...(scenario ? { headers: { 'X-Svc-Test-Scenario': scenario } } : {}),
  });
  if (response.status !== 202) throw new Error(`${endpoint}: ${JSON.stringify(response.body)}`);
  return response.body.id;
}

beforeAll(async () => {
  if (!HAS_CHROMIUM) return;
  svc = await startTestService();
  receiver = await new Receiver().start();
  jobs.plate = await jobOnTheCar('plate.read', { country: 'DE', return_crops: true });
  jobs.damage = await jobOnTheCar('damage.detect');
  jobs.segment = await jobOnTheCar('parts.segment', { output: 'both' });
  jobs.render = await jobOnTheCar('render.background');
  jobs.failed = await jobOnTheCar('vin.read', {}, 'model_error');
  jobs.multipart = (
    await call(svc.baseUrl, 'POST', '/v1/plate.read', {
      key: svc.org.testKey,
      form: formWith('image', [imageFile('dash')]),
    })
  ).body.id;
  inspectionId = (await submitInspection(svc.baseUrl, { key: svc.org.testKey, seed: 'dash-inspection' })).body.id;
  for (const id of Object.values(jobs))
    await eventually(
      async () => ['succeeded', 'failed'].includes((await svc.services.jobs.get(id))?.status ?? ''),
      30_000,
    );
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on('dialog', (dialog) => void dialog.accept());
  page.on('console', (message) => {
    if (/Content.Security.Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  await page.goto(`${svc.baseUrl}/dashboard/login#token=${await svc.issuer.token(svc.org.organization.id, 'owner')}`);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await receiver?.stop();
  await svc?.stop();
});

const shot = (name: string) => dashboardShot(page, name);

/**
 * The labels drawn on each picture of `scope`: how many, how many pairs overlap on screen, how
 * many run out of the picture or (their text) out of their backdrop, and the smallest text height
 * in CSS pixels.
 */
const drawnLabels = (scope: string) =>
  page.locator(`${scope} figure.drawn svg.overlay`).evaluateAll((svgs) => {
    let count = 0;
    let overlapping = 0;
    let outside = 0;
    let smallest = Number.POSITIVE_INFINITY;
    for (const svg of svgs) {
      const frame = svg.getBoundingClientRect();
      const boxes = [...svg.querySelectorAll('rect.label')].map((label) => label.getBoundingClientRect());
      count += boxes.length;
      // a label cut off by the picture's edge is as unreadable as one under another
      for (const box of boxes) if (box.left < frame.left - 0.5 || box.right > frame.right + 0.5) outside += 1;
      for (const [i, a] of boxes.entries())
        for (const b of boxes.slice(i + 1))
          if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5)
            overlapping += 1;
      for (const text of svg.querySelectorAll('rect.label + text')) {
        const own = text.previousElementSibling!.getBoundingClientRect();
        const drawn = text.getBoundingClientRect();
        if (drawn.right > own.right + 0.5 || drawn.left < own.left - 0.5) outside += 1;
        smallest = Math.min(smallest, drawn.height);
      }
    }
    return { count, overlapping, outside, smallest };
  });

/** Runs the playground's chosen endpoint and waits for the run to end (the Run button back). */
const runInPlayground = async (slug: string) => {
  await page.selectOption('#endpoint', slug);
  await page.click('#run');
  await page.waitForSelector('#run:not([disabled])', { timeout: 60_000 });
  const error = (await page.locator('#play-error').count()) ? await page.textContent('#play-error') : null;
  return { slug, status: await page.locator('#run-status .badge').textContent(), error };
};

const execute = promisify(execFile);
/** A command the page shows, run by bash from the repository's root with the key in $AIS_TEST_KEY: the job it created. */
async function runCommand(command: string, key: string): Promise<{ id: string; status: string }> {
  const { stdout } = await execute('bash', ['-euo', 'pipefail', '-c', command], {
    cwd: ROOT,
    env: { ...process.env, AIS_TEST_KEY: key },
  });
  return JSON.parse(stdout.trim().split('\n').pop()!);
}
/** No horizontal scroll: nothing is wider than the window. */
const overflow = () =>
  page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
const go = async (path: string, ready: string) => {
  await page.goto(`${svc.baseUrl}${path}`);
  // attached, not visible: an SVG <image> has no box of its own for the visibility check
  await page.waitForSelector(ready, { state: 'attached' });
};
/** Every picture matching `selector` has loaded (signed object-store URLs included). */
const pictures = (selector: string) =>
  expect
    .poll(() =>
      page
        .locator(selector)
        .evaluateAll(
          (images) =>
            images.length > 0 &&
            images.every(
              (image) =>
                (image as unknown as { complete: boolean; naturalWidth: number }).complete &&
                (image as unknown as { naturalWidth: number }).naturalWidth > 0,
            ),
        ),
    )
    .toBe(true);

describe.skipIf(!HAS_CHROMIUM)('the dashboard in a real browser', () => {
  it('the page carries the Content-Security-Policy that lets it show signed object-store pictures', async () => {
    const policy = (await page.request.get(`${svc.baseUrl}/dashboard/jobs`)).headers()['content-security-policy'];
    expect(policy).toContain("script-src 'self'");
    expect(policy).toMatch(new RegExp(`img-src [^;]*${new URL(inject('standIns').s3).origin}`));
  });

  it('signs in from the fragment: the token is kept in sessionStorage and leaves the address bar', async () => {
    await page.waitForSelector('#org-id');
    expect(page.url()).toBe(`${svc.baseUrl}/dashboard`);
    expect(await page.evaluate<string | null>("sessionStorage.getItem('ais.dashboard.token')")).toMatch(/^ey/);
  });

  it('overview: both balances with their money value, credits per day by endpoint, jobs by status, recent failures with codes', async () => {
    await go('/dashboard?mode=test', '#spend-chart');
    expect(await page.textContent('#org-id')).toBe(svc.org.organization.id);
    expect(await page.textContent('#plan')).toBe('pro');
    expect(await page.textContent('#balance-test')).toMatch(/^[\d,]+ credits \(\$[\d,]+\.\d\d\)$/);
    expect(await page.textContent('#balance-live')).toMatch(/credits \(\$/);
    expect(
      await page.locator('#spend-chart').evaluate((canvas) => (canvas as unknown as { width: number }).width > 0),
    ).toBe(true);
    expect(await page.textContent('#spend-total')).toMatch(/^[1-9][\d,]* credits/);
    expect(Number(await page.textContent('[data-status=succeeded]'))).toBeGreaterThanOrEqual(5);
    expect(Number(await page.textContent('[data-status=failed]'))).toBeGreaterThanOrEqual(1);
    const failures = await page.textContent('#failures');
    expect(failures).toContain(jobs.failed);
    expect(failures).toContain('model_inference_failed');
    await shot('overview');
  });

  it('job detail: plate.read drawn on the input, each plate text beside its crop, JSON one click away, nothing overflowing', async () => {
    await go(`/dashboard/jobs/${jobs.plate}`, 'figure.drawn svg.overlay image');
    const job = (await svc.services.jobs.get(jobs.plate))!;
    const plates = job.result!.plates as Array<{ text: string }>;
    expect(plates.length).toBeGreaterThan(0);
    expect(await page.locator('figure.drawn g.shape').count()).toBe(plates.length);
    const reads = await page.locator('.read .read-title').allTextContents();
    expect(reads).toEqual(plates.map((plate) => plate.text));
    // the crops are the plates' own files, signed like every produced file
    expect(await page.locator('.read img.crop').count()).toBe(plates.length);
    await pictures('.read img.crop');
    expect(await page.locator('details.json pre').isVisible()).toBe(false);
    await page.click('details.json summary');
    expect(await page.locator('details.json pre').isVisible()).toBe(true);
    expect(await page.textContent('details.json pre')).toContain('X-Amz-Signature');
    expect(await overflow()).toBe(0);
    await shot('job-plate-read');
  });

  it('job detail: damage.detect boxes drawn on the car, labelled type and part', async () => {
    await go(`/dashboard/jobs/${jobs.damage}`, 'figure.drawn svg.overlay image');
    const damages = (await svc.services.jobs.get(jobs.damage))!.result!.damages as Array<{
      type: string;
      part: string;
    }>;
    expect(await page.locator('figure.drawn g.shape').count()).toBe(damages.length);
    const labels = await page.locator('figure.drawn g.shape text').allTextContents();
    for (const [i, damage] of damages.entries())
      expect(labels[i]).toContain(`${damage.type.replaceAll('_', ' ')} · ${damage.part.replaceAll('_', ' ')}`);
    await shot('job-damage-detect');
  });

  it('job detail: segmentation masks over the picture, rendered outputs as pictures', async () => {
    await go(`/dashboard/jobs/${jobs.segment}`, 'figure.drawn svg.overlay');
    const parts = (await svc.services.jobs.get(jobs.segment))!.result!.parts as unknown[];
    expect(await page.locator('figure.drawn rect.mask').count()).toBe(parts.length);
    await shot('job-parts-segment');
    await go(`/dashboard/jobs/${jobs.render}`, '.files figure.file img');
    await pictures('.files img');
    expect(await page.locator('.files figure.file img').count()).toBeGreaterThanOrEqual(1);
    await shot('job-render-background');
  });

  it('job detail: a test-mode multipart input that was not kept still gets its shapes, on a blank frame, and says why', async () => {
    await go(`/dashboard/jobs/${jobs.multipart}`, 'figure.drawn');
    expect(await page.locator('figure.drawn svg.overlay image').count()).toBe(0);
    expect(await page.textContent('figure.drawn')).toContain('The input was not kept');
  });

  it('an inspection is a timeline of its eight stages, each opening its child job; the jobs list folds them', async () => {
    await eventually(async () => (await svc.services.jobs.get(inspectionId))?.status === 'succeeded', 60_000);
    const stages = (await svc.services.jobs.get(inspectionId))!.stages!;
    await go(`/dashboard/jobs/${inspectionId}`, '#timeline');
    expect(await page.locator('#timeline li.step').count()).toBe(8);
    expect(
      await page
        .locator('#timeline li.step')
        .evaluateAll((steps) => steps.map((step) => step.getAttribute('data-stage'))),
    ).toEqual(stages.map((s) => s.name));
    await shot('inspection-timeline');
    const damageStage = stages.find((stage) => stage.name === 'detect_damage')!;
    await page.click(`#timeline li[data-stage=detect_damage] a.open-stage`);
    await page.waitForURL(`**/dashboard/jobs/${damageStage.job_id}`);
    await page.waitForSelector('figure.drawn svg.overlay', { state: 'attached' });
    // the jobs list: the inspection once, its stage jobs folded under it
    await page.click('nav >> text=Jobs');
    await page.waitForSelector(`text=${inspectionId}`);
    const listed = await page.locator('#jobs-table tbody tr:not(.stages) td:first-child').allTextContents();
    for (const stage of stages) expect(listed).not.toContain(stage.job_id);
    const row = page.locator(`tr.stages-of-${inspectionId}`);
    expect(await row.isVisible()).toBe(false);
    await page.click(`button.expand[data-id="${inspectionId}"]`);
    expect(await row.isVisible()).toBe(true);
    expect(await row.locator('li.chip').count()).toBe(8);
    await shot('jobs-folded');
    await page.check('input[name=stage_jobs]');
    await page.click('#filters button');
    await page.waitForURL(/stage_jobs=show/);
    await expect
      .poll(async () => page.locator('#jobs-table tbody tr:not(.stages) td:first-child').allTextContents())
      .toEqual(expect.arrayContaining(stages.map((s) => s.job_id)));
  });

  it('jobs: filters by status and endpoint', async () => {
    await go('/dashboard/jobs', '#filters');
    await page.selectOption('select[name=status]', 'succeeded');
    await page.selectOption('select[name=endpoint]', 'inspections');
    await page.click('#filters button');
    await page.waitForURL(/status=succeeded/);
    await expect.poll(() => page.locator('#jobs-table tbody tr:not(.stages)').count(), { timeout: 10_000 }).toBe(1);
    await page.waitForSelector(`text=${inspectionId}`);
  });

  it('batches: progress, counts, failed lines, the output file and the batch’s jobs; cancel on a running batch after a confirmation', async () => {
    const lines = (tag: string) =>
      [0, 1, 2].map((n) => ({
        custom_id: `${tag}-${n}`,
        params: { vin: `WVWZZZ1KZ0000${tag === 'done' ? 1 : 2}00${n}` },
      }));
    // the finished batch has two lines that fail: it ends succeeded, and says so with the count (every line
    // JSON, as the map's reader needs: a file with a line that is not is left to the sweeper, which this service does not run)
    const failing = [{ custom_id: 'done-bad-vin', params: { vin: 'short' } }, '["not", "an object"]'];
    const finished = await createBatchOf(svc.baseUrl, svc.org.testKey, 'pricing.vehicle', [
      ...lines('done'),
      ...failing,
    ]);
    await finishedBatch(svc.baseUrl, svc.org.testKey, finished.body.id);
    // with the worker paused the second batch's jobs stay queued: it is running when canceled
    svc.worker.pause();
    let running: string;
    try {
      running = (await createBatchOf(svc.baseUrl, svc.org.testKey, 'pricing.vehicle', lines('live'))).body.id;
      await eventually(async () => (await svc.services.batches.get(running))?.cursor === 3);
      await go('/dashboard/batches', '#batches-table');
      const done = page.locator('#batches-table tr', { hasText: finished.body.id });
      await expect.poll(() => done.locator('a.output').getAttribute('href')).toMatch(/^http/);
      expect(await done.textContent()).toContain('succeeded, 2 lines failed');
      expect(await done.textContent()).toContain('3/5 succeeded');
      expect(await done.textContent()).toContain('3 succeeded · 2 failed');
      expect(await done.locator('progress').count()).toBe(0);
      const row = page.locator('#batches-table tr', { hasText: running });
      expect(await row.textContent()).toContain('3 queued');
      expect(await row.locator('progress').getAttribute('value')).toBe('0');
      await shot('batches');
      await row.locator('button.cancel').click();
      await page.waitForSelector('#batch-canceled');
      await expect
        .poll(async () => (await page.locator('#batches-table tr', { hasText: running }).textContent()) ?? '')
        .toContain('3 canceled');
      expect(await page.locator('#batches-table tr', { hasText: running }).locator('button.cancel').count()).toBe(0);
      await shot('batches-canceled');
    } finally {
      svc.worker.resume();
    }
    // the batch's jobs: the jobs list filtered by batch
    await page
      .locator('#batches-table tr', { hasText: finished.body.id })
      .getByRole('link', { name: 'jobs', exact: true })
      .click();
    await page.waitForURL(/batch=bat_/);
    await expect.poll(() => page.locator('#jobs-table tbody tr').count(), { timeout: 10_000 }).toBe(3);
    expect(await page.inputValue('input[name=batch]')).toBe(finished.body.id);
  });

  it('playground: a short-lived test key, a sample image and a scenario; the result drawn and the curl that does the same', async () => {
    await page.click('nav >> text=Playground');
    await page.click('#create-key');
    await page.waitForSelector('#run-form');
    const key = await page.evaluate<string | null>("sessionStorage.getItem('ais.dashboard.playground-key')");
    expect(key).toMatch(/^chk_test_/);
    const keys = (await svc.services.accounts.listApiKeys(svc.org.organization.id)).filter(
      (k) => k.name === 'Playground (1 hour)',
    );
    expect(keys).toHaveLength(1);
    expect(keys[0]!.expires_at! - keys[0]!.created).toBe(3600);
    expect(await page.textContent('#endpoint')).toContain('2 credits ($0.02) per image');
    await page.selectOption('#endpoint', 'damage.detect');
    await page.selectOption('#scenario', 'low_confidence');
    const curl = (await page.textContent('#curl'))!;
    expect(curl).toContain(`${svc.baseUrl}/v1/damage.detect`);
    expect(curl).toContain('X-Svc-Test-Scenario: low_confidence');
    // the sample's path from the repository's root: the command runs there as it is
    expect(curl).toContain('-F image=@samples/damaged.jpg');
    expect(curl).toContain('$AIS_TEST_KEY');
    await page.click('#run');
    await page.waitForSelector('#run-result figure.drawn svg.overlay image', { timeout: 20_000, state: 'attached' });
    expect(await page.textContent('#run-status')).toContain('succeeded');
    const id = (await page.getAttribute('#open-job', 'href'))!.split('/').pop()!;
    const job = (await svc.services.jobs.get(id))!;
    expect(job.test_scenario).toBe('low_confidence');
    expect(await page.locator('#run-result g.shape').count()).toBe((job.result!.damages as unknown[]).length);
    await shot('playground-damage-detect');
    // what the command says is what the page sent: run it for real, and it reads the same fixture
    const sent = await runCommand(curl, key!);
    expect(sent.status).toBe('queued');
    await eventually(async () => (await svc.services.jobs.get(sent.id))?.status === 'succeeded');
    expect((await svc.services.jobs.get(sent.id))!.result).toEqual(job.result);
    await page.selectOption('#endpoint', 'plate.read');
    await page.click('#run');
    await page.waitForSelector('#run-result .read .read-title', { timeout: 20_000 });
    await shot('playground-plate-read');
  });

  it('playground: every endpoint the catalogue has available is offered and succeeds on its samples; JSON-only ones upload first, and their command works', async () => {
    const key = (await page.evaluate<string | null>("sessionStorage.getItem('ais.dashboard.playground-key')"))!;
    const catalogue = (await call(svc.baseUrl, 'GET', '/v1/endpoints', { key })).body.data as Array<{
      slug: string;
      availability: string;
      encodings: string[];
    }>;
    await go('/dashboard/playground', '#run-form');
    const offered = await page
      .locator('#endpoint option')
      .evaluateAll((options) => options.map((option) => (option as unknown as { value: string }).value));
    expect(offered).toEqual(catalogue.filter((entry) => entry.availability === 'available').map((e) => e.slug));
    expect(offered).toHaveLength(25);
    const runs = [];
    for (const slug of offered) {
      const outcome = await runInPlayground(slug);
      runs.push(outcome);
      const labels = await drawnLabels('#run-result');
      expect({ slug, overlapping: labels.overlapping, outside: labels.outside }).toEqual({
        slug,
        overlapping: 0,
        outside: 0,
      });
      if (outcome.status === 'succeeded')
        await page.locator('#run-result').screenshot({ path: `test-artifacts/dashboard/playground-${slug}.png` });
    }
    expect(runs.filter((run) => run.status !== 'succeeded')).toEqual([]);
    // a JSON-only endpoint: the command uploads first, then names the upload, and it works
    await page.selectOption('#endpoint', 'video.onboard');
    expect(await page.textContent('#encoding-note')).toContain('takes JSON only');
    const command = (await page.textContent('#curl'))!;
    expect(command).toContain('REF_1=$(upload samples/walkaround.mp4 video/mp4)');
    expect(command).not.toContain('-F ');
    const sent = await runCommand(command, key);
    expect(sent.status).toBe('queued');
    await eventually(async () => (await svc.services.jobs.get(sent.id))?.status === 'succeeded');
    expect((await svc.services.jobs.get(sent.id))!.result).toMatchObject({ duration_seconds: 6 });
  }, 240_000);

  it('playground: every box and hotspot is drawn on the input it belongs to (multi-input endpoints)', async () => {
    await go('/dashboard/playground', '#run-form');
    expect(await runInPlayground('viewer.hotspots')).toMatchObject({ status: 'succeeded' });
    const id = (await page.getAttribute('#open-job', 'href'))!.split('/').pop()!;
    const frames = (await svc.services.jobs.get(id))!.result!.frames as Array<{ index: number; anchors: unknown[] }>;
    expect(frames).toHaveLength(8);
    for (const frame of frames)
      expect({
        frame: frame.index,
        points: await page.locator(`figure.drawn[data-input="${frame.index}"] g.point`).count(),
      }).toEqual({
        frame: frame.index,
        points: frame.anchors.length,
      });
    expect(frames.some((frame) => frame.anchors.length > 0)).toBe(true);
  });

  it('API keys: scopes named by family, a labelled grace period; create, rotate, revoke', async () => {
    await page.click('nav >> text=API keys');
    await page.waitForSelector('#create-key');
    const form = await page.textContent('#create-key');
    for (const name of [
      'A · Understand the vehicle',
      'B · Damage and condition',
      'C · Parts',
      'D · Money',
      'E · Image production',
      'Inspections',
    ])
      expect(form).toContain(name);
    expect(await page.textContent('.key-actions')).toContain('Grace period: the old secret');
    await page.fill('input[name=name]', 'browser key');
    await page.uncheck('input[name=scope][value=E]');
    await page.click('#create-key button');
    const secret = await page.textContent('#secret-value');
    expect(secret).toMatch(/^chk_test_/);
    const row = page.locator('tr', { hasText: 'browser key' });
    await expect.poll(() => row.textContent()).toContain('D · Money');
    expect(await row.textContent()).not.toContain('Image production');
    await shot('api-keys-created');
    // the spend limit: shown beside what the key spent this period, and edited in place
    expect(await row.textContent()).toContain('0 credits this UTC month, no limit');
    await row.locator('.spend-credits').fill('250');
    await row.locator('.spend-period').selectOption('day');
    await row.locator('.set-limit').click();
    await expect
      .poll(() => page.locator('tr', { hasText: 'browser key' }).textContent())
      .toContain('0 / 250 credits per UTC day');
    const stored = (await svc.services.accounts.listApiKeys(svc.org.organization.id)).find(
      (key) => key.name === 'browser key',
    )!;
    expect(stored.spend_limit).toEqual({ credits: 250, period: 'day' });
    await shot('api-keys-spend-limit');
    await page.locator('tr', { hasText: 'browser key' }).locator('select.grace').selectOption('0');
    await row.locator('.rotate').click();
    await expect.poll(() => page.textContent('#secret-value')).not.toBe(secret);
    expect((await call(svc.baseUrl, 'GET', '/v1/jobs', { key: secret! })).status).toBe(401);
    await page.locator('tr', { hasText: 'browser key' }).locator('.revoke').click();
    await expect.poll(() => page.locator('tr', { hasText: 'browser key' }).textContent()).toContain('revoked');
    await shot('api-keys-revoked');
  });

  it('usage: a chart per day and endpoint, and the rows with credits and their money value', async () => {
    await page.click('nav >> text=Usage');
    await page.waitForSelector('#usage-chart');
    await page.waitForSelector('td >> text=plate.read');
    expect(
      await page.locator('#usage-chart').evaluate((canvas) => (canvas as unknown as { width: number }).width > 0),
    ).toBe(true);
    expect(await page.textContent('table')).toMatch(/credits \(\$\d/);
    await shot('usage');
  });

  it('ledger: reserve and commit entries of the jobs, in credits and money', async () => {
    await page.click('nav >> text=Ledger');
    await page.waitForSelector('td >> text=reserve');
    expect(await page.content()).toContain('commit');
    expect(await page.textContent('table')).toMatch(/-[\d,]+ credits? \(-\$/);
    await shot('ledger');
  });

  it('jobs and ledger: a list longer than a page is read through with Older, and Newest goes back to its start', async () => {
    const owner = await svc.issuer.token(svc.org.organization.id, 'owner');
    for (const { list, path } of [
      { list: '/mgmt/v1/jobs?top_level=true', path: '/dashboard/jobs' },
      { list: '/mgmt/v1/ledger', path: '/dashboard/ledger' },
    ]) {
      const all = (
        await call(svc.baseUrl, 'GET', `${list}${list.includes('?') ? '&' : '?'}limit=100`, { key: owner })
      ).body.data.map((item: { id: string }) => item.id) as string[];
      // three pages or four, however many items the other cases made: each page costs a click and a redraw
      const size = Math.max(2, Math.ceil(all.length / 3));
      expect(all.length).toBeGreaterThan(2 * size);
      expect(all.length).toBeLessThan(100);
      await page.goto(`${svc.baseUrl}${path}?limit=${size}`);
      const seen: string[] = [];
      const ids = () => page.locator('tbody tr:not(.stages) td:first-child').allTextContents();
      for (;;) {
        await page.waitForSelector('tbody tr');
        const shown = await ids();
        expect(shown.length).toBeLessThanOrEqual(size);
        seen.push(...shown);
        if ((await page.locator('#older').count()) === 0) break;
        await page.click('#older');
        await expect.poll(async () => (await ids())[0]).not.toBe(shown[0]);
      }
      expect(seen).toEqual(all);
      await page.click('#newest');
      await expect.poll(async () => (await ids())[0]).toBe(all[0]);
      expect(page.url()).not.toContain('starting_after');
    }
  });

  it('webhooks: add an endpoint (secret once), send a test event, read the delivery log, redeliver an event, delete', async () => {
    await page.click('nav >> text=Webhooks');
    await page.fill('input[name=url]', receiver.url);
    await page.click('#create-endpoint button');
    expect(await page.textContent('#secret-value')).toMatch(/^whsec_/);
    await page.click('button.test');
    await expect.poll(() => page.textContent('#test-outcome')).toContain('delivered');
    expect(receiver.requests).toHaveLength(1);
    const settled = (
      await call(svc.baseUrl, 'POST', '/v1/vin.read', {
        key: svc.org.testKey,
        form: formWith('image', [imageFile('dash-hook')]),
      })
    ).body.id;
    await eventually(async () => receiver.events().some((event) => event.data.job.id === settled));
    await page.click('button.deliveries');
    await page.waitForSelector('.delivery-status');
    await shot('webhooks-deliveries');
    await page.reload();
    await page.waitForSelector('button.redeliver');
    const before = receiver.requests.length;
    await page.locator('button.redeliver').first().click();
    await expect.poll(() => page.textContent('#redeliver-outcome')).toContain('1 endpoint');
    await eventually(async () => receiver.requests.length > before);
    await page.click('button.delete');
    await expect.poll(() => page.locator('button.test').count()).toBe(0);
  });

  it('webhooks: a new endpoint is test unless live is chosen, and the list shows each mode', async () => {
    await page.click('nav >> text=Webhooks');
    await page.fill('input[name=url]', receiver.url);
    await page.click('#create-endpoint button');
    await page.waitForSelector('#secret-value');
    await page.fill('input[name=url]', receiver.url);
    await page.check('input[name=mode][value=live]');
    await page.click('#create-endpoint button');
    await expect.poll(() => page.locator('button.test').count()).toBe(2);
    // newest first: the live endpoint, then the test one
    const modes = await page.locator('table').first().locator('tbody tr .badge').allTextContents();
    expect(modes).toEqual(['live', 'test']);
    const endpoints = (
      await call(svc.baseUrl, 'GET', '/mgmt/v1/webhook-endpoints', {
        key: await svc.issuer.token(svc.org.organization.id, 'admin'),
      })
    ).body.data;
    expect(endpoints.map((endpoint: { livemode: boolean }) => endpoint.livemode)).toEqual([true, false]);
    await shot('webhooks-modes');
    for (let remaining = 2; remaining > 0; remaining -= 1) {
      await page.locator('button.delete').first().click();
      await expect.poll(() => page.locator('button.test').count()).toBe(remaining - 1);
    }
  });

  it('billing: what each price buys in credits and money, checkout and portal links, test credits', async () => {
    await page.click('nav >> text=Billing');
    await page.waitForSelector('.offers');
    const offer = (id: string) => page.textContent(`.offer[data-price=${id}]`);
    expect(await offer('credits_5000')).toContain('$50.00');
    expect(await offer('credits_5000')).toContain('5,000 live credits');
    expect(await offer('credits_25000')).toMatch(/\$240\.00[\s\S]*25,000 live credits[\s\S]*4% off/);
    expect(await offer('plan_pro_monthly')).toMatch(
      /\$450\.00[\s\S]*a month[\s\S]*50,000 live credits every month[\s\S]*pro/,
    );
    const before = Number(await page.getAttribute('#test-balance', 'data-credits'));
    await page.fill('#test-credits input[name=amount]', '1234');
    await page.click('#test-credits button');
    await expect.poll(async () => Number(await page.getAttribute('#test-balance', 'data-credits'))).toBe(before + 1234);
    await page.click('.offer[data-price=credits_25000] button.buy');
    expect(await page.getAttribute('#provider-link', 'href')).toMatch(/^http/);
    expect(await page.textContent('#provider-link')).toContain('25,000 credits');
    await page.click('#portal button');
    await expect.poll(() => page.textContent('#provider-link')).toContain('portal');
    await shot('billing');
  });

  it('playground at 390 px: drawn labels stay readable (12 px) and apart on crowded and multi-input results', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await go('/dashboard/playground', '#run-form');
      for (const slug of ['parts.segment', 'document.read', 'damage.detect', 'viewer.hotspots']) {
        expect(await runInPlayground(slug)).toMatchObject({ status: 'succeeded' });
        const labels = await drawnLabels('#run-result');
        expect(labels.count).toBeGreaterThan(0);
        expect({ slug, ...labels, smallest: labels.smallest >= 11 }).toEqual({
          slug,
          count: labels.count,
          overlapping: 0,
          outside: 0,
          smallest: true,
        });
        expect({ slug, overflow: await overflow() }).toEqual({ slug, overflow: 0 });
        await page
          .locator('#run-result .figures')
          .screenshot({ path: `test-artifacts/dashboard/narrow-playground-${slug}.png` });
      }
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });

  it('every dashboard page passes axe-core (WCAG 2 A and AA), the playground with a result drawn', async () => {
    // a tab of its own that bypasses the page policy for the injected axe alone (test/support/axe.ts)
    const tab = await browser.newPage({ bypassCSP: true, viewport: { width: 1280, height: 900 } });
    try {
      await tab.goto(
        `${svc.baseUrl}/dashboard/login#token=${await svc.issuer.token(svc.org.organization.id, 'owner')}`,
      );
      await tab.waitForSelector('#org-id');
      await tab.evaluate(`sessionStorage.setItem('ais.dashboard.playground-key', '${svc.org.testKey}')`);
      const found: string[] = [];
      const pages = [
        ['/dashboard', '#spend-chart'],
        ['/dashboard/jobs', '#jobs-table'],
        [`/dashboard/jobs/${jobs.plate}`, 'figure.drawn svg.overlay image'],
        [`/dashboard/jobs/${inspectionId}`, '#timeline'],
        // the filters are drawn with the table (or its empty state) in one go
        ['/dashboard/batches', '#filters'],
        ['/dashboard/usage', '#usage-chart'],
        ['/dashboard/ledger', 'table'],
        ['/dashboard/api-keys', '#create-key'],
        ['/dashboard/webhooks', '#create-endpoint'],
        ['/dashboard/billing', '.offers'],
        ['/dashboard/members', '#invite'],
        ['/dashboard/playground', '#run-form'],
      ] as const;
      for (const [path, ready] of pages) {
        await tab.goto(`${svc.baseUrl}${path}`);
        await tab.waitForSelector(ready, { state: 'attached' });
        found.push(...axeSummary(path, await axeViolations(tab)));
      }
      await tab.selectOption('#endpoint', 'damage.detect');
      await tab.click('#run');
      await tab.waitForSelector('#run-result figure.drawn', { state: 'attached' });
      found.push(...axeSummary('/dashboard/playground (a result drawn)', await axeViolations(tab)));
      // signed out: the page that says how to sign in again
      await tab.evaluate("sessionStorage.removeItem('ais.dashboard.token')");
      await tab.goto(`${svc.baseUrl}/dashboard/jobs`);
      await tab.waitForSelector('#signed-out');
      found.push(...axeSummary('/dashboard (signed out)', await axeViolations(tab)));
      await tab.goto(`${svc.baseUrl}/dashboard/signup`);
      await tab.waitForSelector('#signup');
      found.push(...axeSummary('/dashboard/signup', await axeViolations(tab)));
      expect(found).toEqual([]);
    } finally {
      await tab.close();
    }
  }, 180_000);

  it('is usable at 390 px: no horizontal scroll on any page, the sidebar folds into a menu', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      for (const [name, path, ready] of [
        ['overview', '/dashboard', '#spend-chart'],
        ['jobs', '/dashboard/jobs', '#jobs-table'],
        ['batches', '/dashboard/batches', '#batches-table'],
        ['plate-read', `/dashboard/jobs/${jobs.plate}`, 'figure.drawn svg.overlay image'],
        ['inspection', `/dashboard/jobs/${inspectionId}`, '#timeline'],
        ['playground', '/dashboard/playground', '#run-form'],
        ['api-keys', '/dashboard/api-keys', '#create-key'],
        ['usage', '/dashboard/usage', '#usage-chart'],
        ['ledger', '/dashboard/ledger', 'table'],
        ['webhooks', '/dashboard/webhooks', '#create-endpoint'],
        ['billing', '/dashboard/billing', '.offers'],
      ] as const) {
        await go(path, ready);
        // an opened JSON view must wrap too
        if (await page.locator('details.json summary').count()) await page.click('details.json summary');
        expect({ path, overflow: await overflow() }).toEqual({ path, overflow: 0 });
        expect(await page.locator('#nav').evaluate((nav) => nav.getBoundingClientRect().right)).toBeLessThanOrEqual(0);
        await shot(`narrow-${name}`);
      }
      await page.click('#menu');
      await expect.poll(() => page.locator('#nav').evaluate((nav) => nav.getBoundingClientRect().left)).toBe(0);
      await dashboardShot(page, 'narrow-menu-open', { fullPage: false });
      await page.click('#nav >> text=Jobs');
      await page.waitForSelector('#jobs-table');
      // the menu slides shut: wait for the transition's end rather than read its last frame
      await expect
        .poll(() => page.locator('#nav').evaluate((nav) => nav.getBoundingClientRect().right))
        .toBeLessThanOrEqual(0);
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  }, 120_000);

  it('signed out: an expired session names `npm run token -- --link` and a pasted link signs in again', async () => {
    const expired = await svc.issuer.token(svc.org.organization.id, 'owner', {
      lifetimeSeconds: 1,
      nowSeconds: Math.floor(svc.clock.nowMs() / 1000) - 60,
    });
    await page.evaluate(`sessionStorage.setItem('ais.dashboard.token', '${expired}')`);
    await go('/dashboard/jobs', '#signed-out');
    expect(await page.textContent('#signed-out h1')).toContain('expired');
    expect(await page.textContent('#signin-command')).toBe('npm run token -- --link');
    expect(await page.evaluate<string | null>("sessionStorage.getItem('ais.dashboard.token')")).toBeNull();
    await shot('signed-out');
    const fresh = await svc.issuer.token(svc.org.organization.id, 'owner');
    await page.fill('#paste-link input', `${svc.baseUrl}/dashboard/login#token=${fresh}`);
    await page.click('#paste-link button');
    await page.waitForSelector('#org-id');
  });

  it('ran under the page policy without a single violation', () => {
    expect(violations).toEqual([]);
  });
});
