import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardShot, HAS_CHROMIUM, launchChromium } from '../../support/browser.js';
import { call } from '../../support/http.js';
import { startTestService, type TestService } from '../../support/service.js';

/** Sign-up and the Members page in headless Chromium (Debian's); screenshots under test-artifacts/dashboard/. */
let svc: TestService;
let browser: Browser;
let owner: BrowserContext;
let page: Page;

beforeAll(async () => {
  if (!HAS_CHROMIUM) return;
  svc = await startTestService();
  browser = await launchChromium();
  owner = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await owner.newPage();
  page.on('dialog', (dialog) => void dialog.accept());
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await svc?.stop();
});

const shot = (target: Page, name: string) => dashboardShot(target, name);
const rowOf = (email: string) => page.locator('tr', { hasText: email });

describe.skipIf(!HAS_CHROMIUM)('sign-up and members in a real browser', () => {
  it('a visitor without a token is offered the local sign-up', async () => {
    await page.goto(`${svc.baseUrl}/dashboard`);
    await page.waitForSelector('#sign-up');
    await page.click('#sign-up');
    await page.waitForSelector('#signup');
    expect(page.url()).toBe(`${svc.baseUrl}/dashboard/signup`);
  });

  it('/dashboard/signup creates an organisation on the free plan with 10,000 test credits and signs its owner in', async () => {
    await page.fill('input[name=organization_name]', 'Browser Garage');
    await page.fill('input[name=email]', 'founder@browser-garage.example');
    await shot(page, 'signup');
    await page.click('#signup button');
    await page.waitForSelector('#org-id');
    expect(page.url()).toBe(`${svc.baseUrl}/dashboard`);
    expect(await page.textContent('#plan')).toBe('free');
    expect(await page.textContent('#balance-test')).toBe('10,000 credits ($100.00)');
    expect(await page.textContent('#balance-live')).toMatch(/^0 credits/);
    expect(await page.textContent('#org-id')).not.toBe(svc.org.organization.id);
    await shot(page, 'signed-up');
  });

  let inviteUrl: string;

  it('Members: invite a colleague (locally with a sign-in link), who signs in with it at once', async () => {
    await page.click('nav >> text=Members');
    await page.waitForSelector('#invite');
    expect(await rowOf('founder@browser-garage.example').textContent()).toContain('active');
    await page.fill('#invite input[name=email]', 'colleague@browser-garage.example');
    await page.selectOption('#invite select[name=role]', 'member');
    await page.click('#invite button');
    await page.waitForSelector('#invite-url');
    inviteUrl = (await page.textContent('#invite-url')) ?? '';
    expect(inviteUrl).toContain(`${svc.baseUrl}/dashboard/login#token=`);
    expect(await rowOf('colleague@browser-garage.example').textContent()).toContain('invited');
    await shot(page, 'members-invited');

    const colleague = await (await browser.newContext()).newPage();
    await colleague.goto(inviteUrl);
    await colleague.waitForSelector('#org-id');
    expect(await colleague.textContent('h1')).toBe('Browser Garage');
    await colleague.close();
    await page.reload();
    await page.waitForSelector('#invite');
    expect(await rowOf('colleague@browser-garage.example').textContent()).toContain('active');
  });

  it('Members: change a role', async () => {
    await rowOf('colleague@browser-garage.example').locator('select.role').selectOption('admin');
    // the page reads the list again after the change and draws it anew: the next test must not act on a
    // row that this drawing is about to replace (the picker would show the old role, losing its choice)
    const listedAgain = page.waitForResponse(
      (response) => response.request().method() === 'GET' && new URL(response.url()).pathname === '/mgmt/v1/members',
    );
    await rowOf('colleague@browser-garage.example').locator('.change-role').click();
    await listedAgain;
    await expect
      .poll(async () => rowOf('colleague@browser-garage.example').locator('select.role').inputValue())
      .toBe('admin');
    await shot(page, 'members-role-changed');
  });

  it('Members: the last owner cannot be demoted; the refusal is shown and nothing changes', async () => {
    await rowOf('founder@browser-garage.example').locator('select.role').selectOption('member');
    await rowOf('founder@browser-garage.example').locator('.change-role').click();
    await page.waitForSelector('#member-error .error');
    expect(await page.textContent('#member-error')).toContain('at least one owner');
    // the list is read again: the picker shows the role in effect
    expect(await rowOf('founder@browser-garage.example').locator('select.role').inputValue()).toBe('owner');
    await shot(page, 'members-last-owner');
  });

  it('Members: remove after a confirmation; the removed colleague’s token stops working at once', async () => {
    const token = new URLSearchParams(new URL(inviteUrl).hash.slice(1)).get('token')!;
    expect((await call(svc.baseUrl, 'GET', '/mgmt/v1/organization', { key: token })).status).toBe(200);
    let confirmed = '';
    page.once('dialog', (dialog) => {
      confirmed = dialog.message();
    });
    await rowOf('colleague@browser-garage.example').locator('.remove').click();
    await expect.poll(() => rowOf('colleague@browser-garage.example').count()).toBe(0);
    expect(confirmed).toContain('colleague@browser-garage.example');
    expect((await call(svc.baseUrl, 'GET', '/mgmt/v1/organization', { key: token })).status).toBe(401);
    await shot(page, 'members-removed');
  });
});
