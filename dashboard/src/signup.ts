import { signIn } from './api.js';
import { escapeHtml } from './html.js';

/** How the dashboard signs people in and up: the local runtime itself, or the stack's Cognito user pool (`GET /mgmt/v1/sign-in`). */
interface SignInOptions {
  provider: 'local' | 'cognito' | 'external' | 'none';
  sign_in_url: string | null;
  sign_up_url: string | null;
}

async function signInOptions(): Promise<SignInOptions> {
  const response = await fetch('/mgmt/v1/sign-in');
  return response.ok ? ((await response.json()) as SignInOptions) : { provider: 'none', sign_in_url: null, sign_up_url: null };
}

/** Cognito's hosted UI sends the ID token back to this dashboard's `/login`, which the app client allows. */
function withRedirect(url: string): string {
  return `${url}&redirect_uri=${encodeURIComponent(`${location.origin}/dashboard/login`)}`;
}

/** What a visitor without a token sees. */
export async function signInPage(app: HTMLElement): Promise<void> {
  const options = await signInOptions();
  if (options.provider === 'cognito' && options.sign_in_url) {
    app.innerHTML = `<h1>Sign in</h1><p><a id="sign-in" class="button" href="${escapeHtml(withRedirect(options.sign_in_url))}">Sign in</a></p>${
      options.sign_up_url ? `<p>New here? <a id="sign-up" href="${escapeHtml(withRedirect(options.sign_up_url))}">Create an organisation</a>.</p>` : ''
    }`;
    return;
  }
  app.innerHTML = `<h1>Sign in</h1>${
    options.provider === 'local'
      ? `<p>Open the sign-in link <code>npm start</code> printed (<code>/dashboard/login#token=…</code>), or <code>npm run token -- --role owner</code> for a fresh one.</p><p>New here? <a id="sign-up" href="/dashboard/signup" data-link>Create an organisation</a>.</p>`
      : '<p>Sign in through your identity provider.</p>'
  }`;
}

/** `/dashboard/signup`: locally a form that creates an organisation and signs its owner in; on AWS, Cognito's hosted sign-up. */
export async function signUpPage(app: HTMLElement, navigate: (path: string) => void): Promise<void> {
  const options = await signInOptions();
  if (options.provider === 'cognito' && options.sign_up_url) {
    location.assign(withRedirect(options.sign_up_url));
    return;
  }
  if (options.provider !== 'local') {
    app.innerHTML = '<h1>Sign up</h1><p>Sign-up is not offered here: ask an owner of your organisation to invite you.</p>';
    return;
  }
  app.innerHTML = `<h1>Create an organisation</h1>
  <p class="muted">It starts on the free plan with 10,000 test credits; you are its owner.</p>
  <form id="signup"><input name="organization_name" placeholder="organisation name" required maxlength="100">
    <input name="email" type="email" placeholder="you@example.com" required><button>Sign up</button></form>
  <div id="signup-error"></div>`;
  app.querySelector<HTMLFormElement>('#signup')!.addEventListener('submit', (event) => {
    event.preventDefault();
    const data = new FormData(event.target as HTMLFormElement);
    void (async () => {
      const response = await fetch('/local/signup', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ organization_name: String(data.get('organization_name')), email: String(data.get('email')) }),
      });
      const body = (await response.json()) as { login_url?: string; error?: { message: string } };
      if (!response.ok || !body.login_url) {
        app.querySelector('#signup-error')!.innerHTML = `<div class="error">${escapeHtml(body.error?.message ?? `HTTP ${response.status}`)}</div>`;
        return;
      }
      // the owner's token travels in the link's fragment: kept like any sign-in
      const token = new URLSearchParams(new URL(body.login_url).hash.slice(1)).get('token');
      if (token) signIn(token);
      navigate('/dashboard');
    })();
  });
}
