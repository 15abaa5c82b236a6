import { existsSync, mkdirSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, eventually, formWith, imageFile } from '../support/http.js';
import { submitInspection } from '../support/inspections.js';
import { Receiver } from '../support/receiver.js';
import { startTestService, type TestService } from '../support/service.js';

/** Every page and action of the dashboard in headless Chromium (Debian's), screenshots under test-artifacts/dashboard/. */
const CHROMIUM = '/usr/bin/chromium';
const SHOTS = 'test-artifacts/dashboard';
let svc: TestService;
let browser: Browser;
let page: Page;
let receiver: Receiver;
let jobId: string;
let inspectionId: string;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) return;
  mkdirSync(SHOTS, { recursive: true });
  svc = await startTestService();
  receiver = await new Receiver().start();
  jobId = (await call(svc.baseUrl, 'POST', '/v1/plate.read', { key: svc.org.testKey, form: formWith('image', [imageFile('dash')]) })).body.id;
  inspectionId = (await submitInspection(svc.baseUrl, { key: svc.org.testKey, seed: 'dash-inspection' })).body.id;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on('dialog', (dialog) => void dialog.accept());
  await page.goto(`${svc.baseUrl}/dashboard/login#token=${await svc.issuer.token(svc.org.organization.id, 'owner')}`);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await receiver?.stop();
  await svc?.stop();
});

const shot = (name: string) => page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });

describe.skipIf(!existsSync(CHROMIUM))('the dashboard in a real browser', () => {
  it('signs in from the fragment: the token is kept in sessionStorage and leaves the address bar', async () => {
    await page.waitForSelector('#org-id');
    expect(page.url()).toBe(`${svc.baseUrl}/dashboard`);
    expect(await page.evaluate<string | null>("sessionStorage.getItem('ais.dashboard.token')")).toMatch(/^ey/);
  });

  it('overview: organisation id, plan and both balances', async () => {
    expect(await page.textContent('#org-id')).toBe(svc.org.organization.id);
    expect(await page.textContent('#plan')).toBe('pro');
    expect(Number(await page.textContent('#balance-test'))).toBeGreaterThan(0);
    expect(await page.textContent('#balance-live')).not.toBe('');
    await shot('overview');
  });

  it('API keys: create with scopes (secret shown once), rotate with grace (new secret), revoke', async () => {
    await page.click('nav >> text=API keys');
    await page.fill('input[name=name]', 'browser key');
    await page.uncheck('input[name=scope][value=E]');
    await page.click('#create-key button');
    const secret = await page.textContent('#secret-value');
    expect(secret).toMatch(/^chk_test_/);
    const row = page.locator('tr', { hasText: 'browser key' });
    await expect.poll(() => row.textContent()).toContain('A, B, C, D, inspections');
    await shot('api-keys-created');
    await row.locator('.grace').fill('60');
    await row.locator('.rotate').click();
    await expect.poll(() => page.textContent('#secret-value')).not.toBe(secret);
    await page.locator('tr', { hasText: 'browser key' }).locator('.revoke').click();
    await expect.poll(() => page.locator('tr', { hasText: 'browser key' }).textContent()).toContain('revoked');
    const refused = await call(svc.baseUrl, 'GET', '/v1/jobs', { key: secret! });
    expect(refused.status).toBe(401);
    await shot('api-keys-revoked');
  });

  it('jobs: history with filters, and a job detail with its stages', async () => {
    await eventually(async () => (await svc.services.jobs.get(inspectionId))?.status === 'succeeded', 60_000);
    await page.click('nav >> text=Jobs');
    await page.waitForSelector(`text=${jobId}`);
    await page.selectOption('select[name=status]', 'succeeded');
    await page.fill('input[name=endpoint]', 'inspections');
    await page.click('#filters button');
    await page.waitForURL(/status=succeeded/);
    // the unfiltered page may still be on screen (it lists the inspection too): wait for the filtered one
    await expect.poll(() => page.locator('tbody tr').count(), { timeout: 10_000 }).toBe(1);
    await page.waitForSelector(`text=${inspectionId}`);
    await shot('jobs-filtered');
    await page.click(`text=${inspectionId}`);
    await page.waitForSelector('text=Stages');
    expect(await page.textContent('#job-status')).toBe('succeeded');
    for (const stage of ['onboard_walkaround', 'detect_damage', 'anchor_hotspots']) expect(await page.content()).toContain(stage);
    await shot('job-detail');
    await page.goto(`${svc.baseUrl}/dashboard/jobs/${jobId}`);
    await page.waitForSelector('text=plate.read');
  });

  it('usage: a chart per day and endpoint, and the rows', async () => {
    await page.click('nav >> text=Usage');
    await page.waitForSelector('#usage-chart');
    await page.waitForSelector('td >> text=plate.read');
    expect(await page.locator('#usage-chart').evaluate((canvas) => (canvas as unknown as { width: number }).width > 0)).toBe(true);
    await shot('usage');
  });

  it('ledger: reserve and commit entries of the jobs', async () => {
    await page.click('nav >> text=Ledger');
    await page.waitForSelector('td >> text=reserve');
    expect(await page.content()).toContain('commit');
    await shot('ledger');
  });

  it('jobs and ledger: a list longer than a page is read through with Older, and Newest goes back to its start', async () => {
    const owner = await svc.issuer.token(svc.org.organization.id, 'owner');
    for (const { list, path, size } of [
      { list: '/mgmt/v1/jobs', path: '/dashboard/jobs', size: 2 },
      { list: '/mgmt/v1/ledger', path: '/dashboard/ledger', size: 2 },
    ]) {
      const all = (await call(svc.baseUrl, 'GET', `${list}?limit=100`, { key: owner })).body.data.map((item: { id: string }) => item.id) as string[];
      expect(all.length).toBeGreaterThan(2 * size);
      await page.goto(`${svc.baseUrl}${path}?limit=${size}`);
      const seen: string[] = [];
      for (;;) {
        await page.waitForSelector('tbody tr');
        // the row's first cell is the id (a link on jobs, code on the ledger)
        const ids = await page.locator('tbody tr td:first-child').allTextContents();
        expect(ids.length).toBeLessThanOrEqual(size);
        seen.push(...ids);
        if ((await page.locator('#older').count()) === 0) break;
        await page.click('#older');
        await expect.poll(async () => (await page.locator('tbody tr td:first-child').allTextContents())[0]).not.toBe(ids[0]);
      }
      expect(seen).toEqual(all);
      await shot(`${path.split('/').pop()}-last-page`);
      await page.click('#newest');
      await expect.poll(async () => (await page.locator('tbody tr td:first-child').allTextContents())[0]).toBe(all[0]);
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
    const settled = (await call(svc.baseUrl, 'POST', '/v1/vin.read', { key: svc.org.testKey, form: formWith('image', [imageFile('dash-hook')]) })).body.id;
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
    await shot('webhooks');
  });

  it('billing: test credits, checkout and portal links', async () => {
    await page.click('nav >> text=Billing');
    const before = Number(await page.textContent('#test-balance'));
    await page.fill('#test-credits input[name=amount]', '1234');
    await page.click('#test-credits button');
    await expect.poll(async () => Number(await page.textContent('#test-balance'))).toBe(before + 1234);
    await page.selectOption('#checkout select', 'credits_5000');
    await page.click('#checkout button');
    expect(await page.getAttribute('#provider-link', 'href')).toMatch(/^http/);
    await page.click('#portal button');
    await expect.poll(() => page.textContent('#provider-link')).toContain('portal');
    await shot('billing');
  });
});
