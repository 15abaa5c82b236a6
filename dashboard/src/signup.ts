import { mgmt, type Schemas, signIn, unwrap } from './api.js';
import { escapeHtml } from './html.js';
import { beginSignIn, type CodeFlowEndpoints } from './sign-in-flow.js';

/** How people sign in and up here: the local runtime itself, the stack's Cognito user pool, or another issuer. */
type SignInOptions = Schemas['SignInOptions'];

/**
 * `POST /local/signup`: the local runtime's own page, not part of the API, so the typed client
 * (generated from the OpenAPI document) does not know it. Errors come as the API's envelope.
 */
async function localSignUp(organizationName: string, email: string): Promise<{ login_url: string }> {
  const response = await fetch('/local/signup', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ organization_name: organizationName, email }),
  });
  const body = (await response.json().catch(() => null)) as { login_url: string; error?: { message?: string } } | null;
  if (!response.ok || !body) throw new Error(body?.error?.message ?? `sign-up answered ${response.status}`);
  return body;
}

async function signInOptions(): Promise<SignInOptions> {
  try {
    return await unwrap(mgmt.GET('/mgmt/v1/sign-in'));
  } catch {
    return {
      object: 'sign_in_options',
      provider: 'none',
      sign_in_url: null,
      sign_up_url: null,
      token_url: null,
      client_id: null,
    };
  }
}

/** The code flow to one of the provider's pages (its sign-in, or Cognito's hosted sign-up), where it offers one. */
function codeFlow(options: SignInOptions, page: string | null): CodeFlowEndpoints | null {
  return page && options.token_url && options.client_id
    ? { authorizeUrl: page, tokenUrl: options.token_url, clientId: options.client_id }
    : null;
}

/** A button that leaves for the provider's page with a fresh PKCE verifier and state. */
function codeFlowButton(host: HTMLElement, id: string, endpoints: CodeFlowEndpoints | null): void {
  host.querySelector(`#${id}`)?.addEventListener('click', () => {
    if (endpoints) void beginSignIn(endpoints);
  });
}

/**
 * What the signed-out page offers besides a pasted link: Cognito's hosted sign-in and sign-up, or
 * (locally) creating an organisation.
 */
export async function signInChoices(host: HTMLElement): Promise<void> {
  const options = await signInOptions();
  const signInFlow = codeFlow(options, options.sign_in_url);
  if (options.provider === 'cognito' && signInFlow) {
    const signUpFlow = codeFlow(options, options.sign_up_url);
    host.innerHTML = `<p><button type="button" id="sign-in">Sign in</button>${
      signUpFlow ? ` or <button type="button" id="sign-up" class="link">create an organisation</button>` : ''
    }</p>`;
    codeFlowButton(host, 'sign-in', signInFlow);
    codeFlowButton(host, 'sign-up', signUpFlow);
  } else if (options.provider === 'local') {
    host.innerHTML = `<p>${signInFlow ? '<button type="button" id="sign-in">Sign in</button> as a member of an organisation. ' : ''}New here? <a id="sign-up" href="/dashboard/signup" data-link>Create an organisation</a>.</p>`;
    codeFlowButton(host, 'sign-in', signInFlow);
  }
}

/** `/dashboard/signup`: locally a form that creates an organisation and signs its owner in; on AWS, Cognito's hosted sign-up. */
export async function signUpPage(app: HTMLElement, signedIn: () => void): Promise<void> {
  const options = await signInOptions();
  const signUpFlow = codeFlow(options, options.sign_up_url);
  if (options.provider === 'cognito' && signUpFlow) {
    await beginSignIn(signUpFlow);
    return;
  }
  if (options.provider !== 'local') {
    app.innerHTML =
      '<section class="signin panel"><h1>Sign up</h1><p>Sign-up is not offered here: ask an owner of your organisation to invite you.</p></section>';
    return;
  }
  app.innerHTML = `<section class="signin panel">
  <h1>Create an organisation</h1>
  <p class="muted">It starts on the free plan with 10,000 test credits; you are its owner.</p>
  <form id="signup">
    <label>Organisation <input name="organization_name" placeholder="e.g. Garage Nord" required maxlength="100"></label>
    <label>Your email <input name="email" type="email" placeholder="you@example.com" required></label>
    <button>Sign up</button></form>
  <div id="signup-error"></div></section>`;
  app.querySelector<HTMLFormElement>('#signup')!.addEventListener('submit', (event) => {
    event.preventDefault();
    const data = new FormData(event.target as HTMLFormElement);
    void localSignUp(String(data.get('organization_name')), String(data.get('email'))).then(
      (answer) => {
        // the owner's token travels in the link's fragment: kept like any sign-in
        const jwt = new URLSearchParams(new URL(answer.login_url).hash.slice(1)).get('token');
        if (jwt) signIn(jwt);
        signedIn();
      },
      (error: unknown) => {
        app.querySelector('#signup-error')!.innerHTML =
          `<div class="error">${escapeHtml(error instanceof Error ? error.message : String(error))}</div>`;
      },
    );
  });
}
