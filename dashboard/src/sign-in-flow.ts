import { signIn } from './api.js';

/**
 * The OAuth 2.0 authorisation code grant with PKCE (RFC 7636, S256), as the OAuth security best
 * current practice asks of a browser app: the identity provider (Cognito's hosted UI on AWS, the
 * local issuer under `npm start`) sends back a one-time code in the query of `<dashboard>/login`,
 * never a token, and only this tab, which holds the verifier, can exchange it. The verifier and
 * `state` wait in sessionStorage (this tab only) while the provider's page is open, and are
 * removed once used.
 */
const PENDING_KEY = 'ais.dashboard.sign-in';

/** Where this dashboard asks to be sent back (registered with the app client). */
export function redirectUri(): string {
  return `${location.origin}/dashboard/login`;
}

interface PendingSignIn {
  state: string;
  verifier: string;
  tokenUrl: string;
  clientId: string;
  redirectUri: string;
}

/** The provider's endpoints, as `GET /mgmt/v1/sign-in` names them. */
export interface CodeFlowEndpoints {
  /** the authorisation (or hosted sign-up) page, with `client_id`, `response_type=code` and `scope` */
  authorizeUrl: string;
  tokenUrl: string;
  clientId: string;
}

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function randomBase64url(byteCount: number): string {
  return base64url(crypto.getRandomValues(new Uint8Array(byteCount)));
}

/** S256: base64url(SHA-256(ASCII(verifier))) */
async function challengeOf(verifier: string): Promise<string> {
  return base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))));
}

/** Leaves for the provider's page, with a fresh verifier (32 random bytes: 43 characters) and state. */
export async function beginSignIn(endpoints: CodeFlowEndpoints): Promise<void> {
  const pending: PendingSignIn = {
    state: randomBase64url(16),
    verifier: randomBase64url(32),
    tokenUrl: endpoints.tokenUrl,
    clientId: endpoints.clientId,
    redirectUri: redirectUri(),
  };
  sessionStorage.setItem(PENDING_KEY, JSON.stringify(pending));
  const target = new URL(endpoints.authorizeUrl);
  target.searchParams.set('redirect_uri', pending.redirectUri);
  target.searchParams.set('state', pending.state);
  target.searchParams.set('code_challenge', await challengeOf(pending.verifier));
  target.searchParams.set('code_challenge_method', 'S256');
  location.assign(target.href);
}

/** Whether this address is the provider sending someone back (a code, or its refusal). */
export function isSignInReturn(url: URL): boolean {
  return url.pathname === '/dashboard/login' && (url.searchParams.has('code') || url.searchParams.has('error'));
}

function takePending(): PendingSignIn | null {
  const stored = sessionStorage.getItem(PENDING_KEY);
  sessionStorage.removeItem(PENDING_KEY);
  return stored ? (JSON.parse(stored) as PendingSignIn) : null;
}

/**
 * Finishes a sign-in the provider sent back: the state must be the one this tab sent, then the code
 * and verifier are exchanged for tokens, of which the ID token is kept as any sign-in's. Returns
 * null when signed in, else why not.
 */
export async function completeSignIn(url: URL): Promise<string | null> {
  const pending = takePending();
  const params = url.searchParams;
  if (!pending || params.get('state') !== pending.state)
    return 'This sign-in was not started in this tab (its state does not match): sign in again.';
  const refusal = params.get('error');
  if (refusal) return `The identity provider refused the sign-in: ${params.get('error_description') ?? refusal}`;
  const response = await fetch(pending.tokenUrl, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      client_id: pending.clientId,
      code: params.get('code') ?? '',
      redirect_uri: pending.redirectUri,
      code_verifier: pending.verifier,
    }),
  });
  const body = (await response.json().catch(() => null)) as {
    id_token?: string;
    error?: string;
    error_description?: string;
  } | null;
  if (!response.ok || !body?.id_token)
    return `The sign-in could not be completed: ${body?.error_description ?? body?.error ?? `the token endpoint answered ${response.status}`}`;
  signIn(body.id_token);
  return null;
}
