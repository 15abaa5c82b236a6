import { createHash } from 'node:crypto';
import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardShot, HAS_CHROMIUM, launchChromium } from '../../support/browser.js';
import { startTestService, type TestService } from '../../support/service.js';

/**
 * Signing in to the dashboard in headless Chromium (Debian's) through the local issuer, with the
 * authorisation code grant and PKCE, as it signs in through Cognito's hosted UI on AWS.
 * Screenshots under test-artifacts/dashboard/.
 */
let svc: TestService;
let browser: Browser;

beforeAll(async () => {
  if (!HAS_CHROMIUM) return;
  svc = await startTestService();
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await svc?.stop();
});

/** A fresh tab (nothing in sessionStorage) that records every address it visits and every request it makes. */
async function freshTab(): Promise<{ page: Page; visited: string[]; requests: Request[] }> {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  const visited: string[] = [];
  const requests: Request[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) visited.push(frame.url());
  });
  page.on('request', (request) => requests.push(request));
  return { page, visited, requests };
}

/** From the signed-out dashboard to the local issuer's sign-in form; the authorisation request it was opened with. */
async function openSignIn(page: Page): Promise<URL> {
  await page.goto(`${svc.baseUrl}/dashboard`);
  await page.click('#sign-in');
  await page.waitForSelector('#authorize');
  return new URL(page.url());
}

async function submitAs(page: Page, email: string): Promise<void> {
  await page.fill('input[name=organization]', svc.org.organization.id);
  await page.fill('input[name=email]', email);
  await page.click('#authorize button');
}

/** What the tab keeps in sessionStorage: its token, and a sign-in still waiting for its code. */
const stored = (page: Page) =>
  page.evaluate(() => {
    // runs in the page, where sessionStorage exists (this file is typed for Node)
    const storage = (globalThis as unknown as { sessionStorage: { getItem(key: string): string | null } })
      .sessionStorage;
    return { token: storage.getItem('ais.dashboard.token'), pending: storage.getItem('ais.dashboard.sign-in') };
  });

describe.skipIf(!HAS_CHROMIUM)('signing in to the dashboard: authorisation code with PKCE', () => {
  it('signs in end to end: the issuer’s page, a code (never a token) back at /login, the exchange with the verifier', async () => {
    const { page, visited, requests } = await freshTab();
    await page.goto(`${svc.baseUrl}/dashboard`);
    await page.waitForSelector('#sign-in');
    await dashboardShot(page, 'sign-in-offered');

    const authorize = await openSignIn(page);
    expect(authorize.pathname).toBe('/local/oauth2/authorize');
    expect(Object.fromEntries(authorize.searchParams)).toEqual({
      client_id: 'automotive-inference-mgmt',
      response_type: 'code',
      scope: 'openid',
      redirect_uri: `${svc.baseUrl}/dashboard/login`,
      state: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
      code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      code_challenge_method: 'S256',
    });
    await page.fill('input[name=organization]', svc.org.organization.id);
    await page.fill('input[name=email]', 'admin@example.com');
    await dashboardShot(page, 'sign-in-local-issuer');
    await page.click('#authorize button');
    await page.waitForSelector('#org-id');
    expect(page.url()).toBe(`${svc.baseUrl}/dashboard`);
    expect(await page.textContent('#org-id')).toBe(svc.org.organization.id);

    // the issuer sent back a code and the state in the query of /login: no token in any address visited
    const back = visited.map((address) => new URL(address)).find((address) => address.pathname === '/dashboard/login')!;
    expect([...back.searchParams.keys()].sort()).toEqual(['code', 'state']);
    expect(back.hash).toBe('');
    expect(back.searchParams.get('state')).toBe(authorize.searchParams.get('state'));
    for (const address of visited) expect(address).not.toMatch(/token/i);

    // the dashboard exchanged that code with the verifier whose SHA-256 is the challenge it sent
    const exchange = requests.find((request) => request.url() === `${svc.baseUrl}/local/oauth2/token`)!;
    expect(exchange.method()).toBe('POST');
    const form = new URLSearchParams(exchange.postData() ?? '');
    expect(form.get('grant_type')).toBe('authorization_code');
    expect(form.get('code')).toBe(back.searchParams.get('code'));
    expect(form.get('redirect_uri')).toBe(`${svc.baseUrl}/dashboard/login`);
    const verifier = form.get('code_verifier')!;
    expect(verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(createHash('sha256').update(verifier).digest('base64url')).toBe(
      authorize.searchParams.get('code_challenge'),
    );

    // the ID token is kept as any sign-in's (sessionStorage), the verifier and state are gone
    const kept = await stored(page);
    expect(kept.token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(kept.pending).toBeNull();
    await dashboardShot(page, 'signed-in-with-code');
    await page.context().close();
  });

  it('stays signed out and says why when the token endpoint refuses the verifier', async () => {
    const { page } = await freshTab();
    // the verifier is swapped on its way out: the issuer must refuse the exchange
    await page.route(`${svc.baseUrl}/local/oauth2/token`, (route) => {
      const form = new URLSearchParams(route.request().postData() ?? '');
      form.set('code_verifier', 'A'.repeat(43));
      void route.continue({ postData: form.toString() });
    });
    await openSignIn(page);
    const refused = page.waitForResponse(`${svc.baseUrl}/local/oauth2/token`);
    await submitAs(page, 'admin@example.com');
    const answer = await refused;
    expect(answer.status()).toBe(400);
    expect(await answer.json()).toEqual({
      error: 'invalid_grant',
      error_description: 'code_verifier does not match the code_challenge.',
    });
    await page.waitForSelector('#sign-in-problem');
    expect(await page.textContent('#sign-in-problem')).toContain('code_verifier does not match');
    expect(page.url()).toBe(`${svc.baseUrl}/dashboard`);
    expect(await stored(page)).toEqual({ token: null, pending: null });
    await dashboardShot(page, 'sign-in-refused');
    await page.context().close();
  });

  it('exchanges nothing when a code comes back with a state this tab did not send', async () => {
    const { page, requests } = await freshTab();
    await openSignIn(page);
    await page.goto(`${svc.baseUrl}/dashboard/login?code=forged-code&state=someone-elses-state`);
    await page.waitForSelector('#sign-in-problem');
    expect(await page.textContent('#sign-in-problem')).toContain('not started in this tab');
    expect(requests.some((request) => request.url().includes('/local/oauth2/token'))).toBe(false);
    expect(await stored(page)).toEqual({ token: null, pending: null });
    await page.context().close();
  });
});
