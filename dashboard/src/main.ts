import { ApiFailure, signIn, token } from './api.js';
import { escapeHtml } from './html.js';
import { apiKeys, billing, jobDetail, jobs, ledger, overview, type Render, usage, webhooks } from './pages.js';
import { members } from './members.js';
import { signInPage, signUpPage } from './signup.js';

const ROUTES: Array<{ pattern: RegExp; title: string; render: Render; nav?: string }> = [
  { pattern: /^\/dashboard\/?$/, title: 'Overview', render: overview, nav: '/dashboard' },
  { pattern: /^\/dashboard\/api-keys$/, title: 'API keys', render: apiKeys, nav: '/dashboard/api-keys' },
  { pattern: /^\/dashboard\/jobs$/, title: 'Jobs', render: jobs, nav: '/dashboard/jobs' },
  { pattern: /^\/dashboard\/jobs\/(?<id>[^/]+)$/, title: 'Job', render: jobDetail },
  { pattern: /^\/dashboard\/usage$/, title: 'Usage', render: usage, nav: '/dashboard/usage' },
  { pattern: /^\/dashboard\/ledger$/, title: 'Ledger', render: ledger, nav: '/dashboard/ledger' },
  { pattern: /^\/dashboard\/webhooks$/, title: 'Webhooks', render: webhooks, nav: '/dashboard/webhooks' },
  { pattern: /^\/dashboard\/billing$/, title: 'Billing', render: billing, nav: '/dashboard/billing' },
  { pattern: /^\/dashboard\/members$/, title: 'Members', render: members, nav: '/dashboard/members' },
];

const app = document.querySelector<HTMLElement>('#app')!;
const nav = document.querySelector<HTMLElement>('#nav')!;

function drawNav(active: string): void {
  nav.innerHTML = `<strong>Automotive Inference</strong>${ROUTES.filter((route) => route.nav)
    .map((route) => `<a href="${route.nav}" data-link class="${route.nav === active ? 'active' : ''}">${route.title}</a>`)
    .join('')}<a href="/docs/">Documentation</a>`;
}

async function show(): Promise<void> {
  // local sign-in: the token travels in the fragment, is kept in sessionStorage, and leaves the address bar
  if (location.pathname === '/dashboard/login') {
    const fragment = new URLSearchParams(location.hash.slice(1));
    // `token`: npm start's link; `id_token`: an OIDC implicit-flow redirect (Cognito's hosted UI)
    const jwt = fragment.get('token') ?? fragment.get('id_token');
    if (jwt) signIn(jwt);
    history.replaceState(null, '', '/dashboard');
  }
  const route = ROUTES.find((candidate) => candidate.pattern.test(location.pathname));
  drawNav(route?.nav ?? (location.pathname.startsWith('/dashboard/jobs/') ? '/dashboard/jobs' : ''));
  if (location.pathname === '/dashboard/signup') {
    document.title = 'Sign up · Automotive Inference';
    await signUpPage(app, navigate);
    return;
  }
  if (!token()) {
    await signInPage(app);
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
    const expired = error instanceof ApiFailure && error.status === 401;
    app.innerHTML = `<div class="error">${escapeHtml(expired ? 'Your session has expired: open a fresh sign-in link (npm run token -- --role owner).' : String(error))}</div>`;
  }
}

function navigate(path: string): void {
  history.pushState(null, '', path);
  void show();
}

document.addEventListener('click', (event) => {
  const link = (event.target as HTMLElement).closest<HTMLAnchorElement>('a[data-link]');
  if (!link) return;
  event.preventDefault();
  navigate(link.getAttribute('href')!);
});
window.addEventListener('popstate', () => void show());
window.addEventListener('unhandledrejection', (event) => {
  app.insertAdjacentHTML('afterbegin', `<div class="error">${escapeHtml(String(event.reason))}</div>`);
});
void show();
