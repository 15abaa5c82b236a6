import { AisError, signIn, signOut, token } from './api.js';
import { batches } from './batches.js';
import { billing } from './billing.js';
import { escapeHtml } from './html.js';
import { jobDetail } from './job-detail.js';
import { jobs } from './jobs.js';
import { apiKeys } from './keys.js';
import { ledger } from './ledger.js';
import { members } from './members.js';
import { overview } from './overview.js';
import type { Render } from './page.js';
import { playground } from './playground.js';
import { completeSignIn, isSignInReturn } from './sign-in-flow.js';
import { signInChoices, signUpPage } from './signup.js';
import { usage } from './usage.js';
import { webhooks } from './webhooks.js';

interface Route {
  pattern: RegExp;
  title: string;
  render: Render;
  /** the sidebar entry this page lights up */
  nav: string;
  /** shown in the sidebar */
  listed?: boolean;
}

const ROUTES: Route[] = [
  { pattern: /^\/dashboard\/?$/, title: 'Overview', render: overview, nav: '/dashboard', listed: true },
  { pattern: /^\/dashboard\/jobs$/, title: 'Jobs', render: jobs, nav: '/dashboard/jobs', listed: true },
  { pattern: /^\/dashboard\/jobs\/(?<id>[^/]+)$/, title: 'Job', render: jobDetail, nav: '/dashboard/jobs' },
  { pattern: /^\/dashboard\/batches$/, title: 'Batches', render: batches, nav: '/dashboard/batches', listed: true },
  {
    pattern: /^\/dashboard\/playground$/,
    title: 'Playground',
    render: playground,
    nav: '/dashboard/playground',
    listed: true,
  },
  { pattern: /^\/dashboard\/usage$/, title: 'Usage', render: usage, nav: '/dashboard/usage', listed: true },
  { pattern: /^\/dashboard\/ledger$/, title: 'Ledger', render: ledger, nav: '/dashboard/ledger', listed: true },
  { pattern: /^\/dashboard\/api-keys$/, title: 'API keys', render: apiKeys, nav: '/dashboard/api-keys', listed: true },
  { pattern: /^\/dashboard\/webhooks$/, title: 'Webhooks', render: webhooks, nav: '/dashboard/webhooks', listed: true },
  { pattern: /^\/dashboard\/billing$/, title: 'Billing', render: billing, nav: '/dashboard/billing', listed: true },
  { pattern: /^\/dashboard\/members$/, title: 'Members', render: members, nav: '/dashboard/members', listed: true },
];

/** The command that prints a fresh sign-in link locally. */
const SIGN_IN_COMMAND = 'npm run token -- --link';

const app = document.querySelector<HTMLElement>('#app')!;
const nav = document.querySelector<HTMLElement>('#nav')!;
const menu = document.querySelector<HTMLButtonElement>('#menu')!;

function drawNav(active: string, signedIn: boolean): void {
  const links = signedIn
    ? ROUTES.filter((route) => route.listed)
        .map(
          (route) =>
            `<a href="${route.nav}" data-link class="${route.nav === active ? 'active' : ''}"${route.nav === active ? ' aria-current="page"' : ''}>${route.title}</a>`,
        )
        .join('')
    : '';
  nav.innerHTML = `${links}<a href="/docs/">Documentation</a>${signedIn ? '<button type="button" id="sign-out" class="link">Sign out</button>' : ''}`;
  nav.querySelector('#sign-out')?.addEventListener('click', () => {
    signOut();
    void show();
  });
}

function setMenu(open: boolean): void {
  document.body.classList.toggle('nav-open', open);
  menu.setAttribute('aria-expanded', String(open));
}

/**
 * Signed out, or the token expired: how to get a fresh sign-in, and a place to paste one. `problem`
 * says why a sign-in that came back from the identity provider did not complete.
 */
function signedOut(reason: 'none' | 'expired', problem?: string): void {
  app.innerHTML = `<section class="signin panel" id="signed-out">
    <h1>${reason === 'expired' ? 'Your session has expired' : 'Sign in'}</h1>
    ${problem ? `<div class="error" id="sign-in-problem">${escapeHtml(problem)}</div>` : ''}
    <div id="sign-in-choices"><p class="muted">On AWS, sign in through your organisation's identity provider.</p></div>
    <p>${reason === 'expired' ? 'Dashboard tokens last 15 minutes. ' : ''}Or get a fresh sign-in link: in the repository, run</p>
    <pre class="command" id="signin-command">${escapeHtml(SIGN_IN_COMMAND)}</pre>
    <p>and open the link it prints (<code>…/dashboard/login#token=…</code>; <code>npm start</code> prints one too). Add <code>--role admin</code> or <code>--role member</code> for another role.</p>
    <form id="paste-link" class="inline"><label>Or paste the link or token <input name="link" placeholder="http://127.0.0.1:3000/dashboard/login#token=…" required></label><button>Sign in</button></form>
  </section>`;
  // what this deployment offers: Cognito's hosted sign-in and sign-up, or (locally) a new organisation
  void signInChoices(app.querySelector<HTMLElement>('#sign-in-choices')!);
  app.querySelector<HTMLFormElement>('#paste-link')!.addEventListener('submit', (event) => {
    event.preventDefault();
    const value = String(new FormData(event.target as HTMLFormElement).get('link')).trim();
    const jwt = value.includes('#') ? new URLSearchParams(value.slice(value.indexOf('#') + 1)).get('token') : value;
    if (!jwt) return;
    signIn(jwt);
    history.replaceState(null, '', '/dashboard');
    void show();
  });
}

async function show(): Promise<void> {
  setMenu(false);
  let problem: string | undefined;
  if (isSignInReturn(new URL(location.href))) {
    // the identity provider sent back a code (or its refusal): exchange it with this tab's PKCE verifier
    problem = (await completeSignIn(new URL(location.href))) ?? undefined;
    history.replaceState(null, '', '/dashboard');
  } else if (location.pathname === '/dashboard/login') {
    // a sign-in link: the token travels in the fragment, is kept in sessionStorage, and leaves the address bar
    const fragment = new URLSearchParams(location.hash.slice(1));
    // `token`: the local runtime's links; `id_token`: another OIDC issuer (-c jwtIssuer) that sends one back
    const jwt = fragment.get('token') ?? fragment.get('id_token');
    if (jwt) signIn(jwt);
    history.replaceState(null, '', '/dashboard');
  }
  const route = ROUTES.find((candidate) => candidate.pattern.test(location.pathname));
  drawNav(route?.nav ?? '', token() !== null);
  if (location.pathname === '/dashboard/signup') {
    document.title = 'Sign up · Automotive Inference';
    await signUpPage(app, () => {
      history.replaceState(null, '', '/dashboard');
      void show();
    });
    return;
  }
  if (!token()) {
    document.title = 'Sign in · Automotive Inference';
    signedOut('none', problem);
    return;
  }
  if (!route) {
    app.innerHTML = '<h1>Not found</h1>';
    return;
  }
  document.title = `${route.title} · Automotive Inference`;
  app.innerHTML = '<p class="muted">Loading…</p>';
  try {
    await route.render(app, (route.pattern.exec(location.pathname)?.groups ?? {}) as Record<string, string>);
  } catch (error) {
    if (error instanceof AisError && error.status === 401) {
      signOut();
      drawNav('', false);
      signedOut('expired');
      return;
    }
    app.innerHTML = `<div class="error">${escapeHtml(error instanceof AisError ? `${error.code}: ${error.message}` : String(error))}</div>`;
  }
}

menu.addEventListener('click', () => setMenu(!document.body.classList.contains('nav-open')));
document.querySelector('#scrim')!.addEventListener('click', () => setMenu(false));
document.addEventListener('click', (event) => {
  const link = (event.target as HTMLElement).closest<HTMLAnchorElement>('a[data-link]');
  if (!link || event.ctrlKey || event.metaKey) return;
  event.preventDefault();
  history.pushState(null, '', link.getAttribute('href'));
  window.scrollTo(0, 0);
  void show();
});
window.addEventListener('popstate', () => void show());
window.addEventListener('unhandledrejection', (event) => {
  const reason = event.reason as unknown;
  if (reason instanceof AisError && reason.status === 401) {
    signOut();
    drawNav('', false);
    signedOut('expired');
    return;
  }
  app.insertAdjacentHTML(
    'afterbegin',
    `<div class="error">${escapeHtml(reason instanceof AisError ? `${reason.code}: ${reason.message}` : String(reason))}</div>`,
  );
});
void show();
