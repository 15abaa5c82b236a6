import { createHash, randomBytes } from 'node:crypto';
import type { MemberRecord } from '../lambdas/domain/access/member.js';
import type { Clock } from '../lambdas/domain/kernel/clock.js';
import { escapeHtml, htmlPage } from '../lambdas/http/html.js';
import { DASHBOARD_TOKEN_SECONDS } from './local-issuer.js';

/** Where the local issuer signs people in (Cognito's hosted UI has `/oauth2/authorize` and `/oauth2/token`). */
export const AUTHORIZE_PATH = '/local/oauth2/authorize';
export const TOKEN_PATH = '/local/oauth2/token';
/** Cognito's authorisation codes are good for 5 minutes; so are these. */
export const AUTHORIZATION_CODE_SECONDS = 5 * 60;
/** the scopes the dashboard asks for (Cognito: `openid email`) */
const SCOPES = new Set(['openid', 'email']);
/** RFC 7636: a verifier is 43 to 128 unreserved characters; an S256 challenge is 43 base64url characters */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/** What the local issuer is asked: the request's method, address, media type and (form) body. */
export interface IssuerRequest {
  method: string;
  url: URL;
  contentType: string | undefined;
  body: string;
}

export interface IssuerAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface LocalAuthorizationOptions {
  /** the runtime's base URL: the one registered redirect is `<baseUrl>/dashboard/login` */
  baseUrl: string;
  /** the dashboard's client id: the `aud` of the tokens it gets */
  clientId: string;
  clock: Clock;
  /** the member of `orgId` with this email (any case), if there is one */
  findMember(orgId: string, email: string): Promise<MemberRecord | null>;
  /** a 15-minute dashboard token for that member */
  sign(member: MemberRecord): Promise<string>;
}

interface IssuedCode {
  member: MemberRecord;
  redirectUri: string;
  challenge: string;
  expiresAtMs: number;
}

/** What `/authorize` was asked, once the client and its redirect are known to be ours. */
interface AuthorizationRequest {
  redirectUri: string;
  state: string | null;
  challenge: string;
  scope: string;
}

type Checked = { ok: AuthorizationRequest } | { redirectError: { error: string; description: string } } | IssuerAnswer;

const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };

function base64url(bytes: Buffer): string {
  return bytes.toString('base64url');
}

/**
 * The local runtime's stand-in for Cognito's hosted UI and token endpoint: the OAuth 2.0
 * authorisation code grant with PKCE (S256 only), as the dashboard uses on AWS. `/authorize`
 * answers with a code in the redirect's query, never a token; `/token` exchanges the code once,
 * for the client and redirect it was issued to, with the verifier whose SHA-256 is the challenge,
 * within 5 minutes. Locally there are no passwords (anyone on this machine can already mint a
 * token with `npm run token`): a person names their organisation and email. Codes live in memory,
 * so a restart forgets the unused ones.
 */
export class LocalAuthorizationServer {
  private readonly codes = new Map<string, IssuedCode>();
  private readonly redirectUri: string;

  constructor(private readonly options: LocalAuthorizationOptions) {
    this.redirectUri = `${options.baseUrl}/dashboard/login`;
  }

  handles(pathname: string): boolean {
    return pathname === AUTHORIZE_PATH || pathname === TOKEN_PATH;
  }

  async answer(request: IssuerRequest): Promise<IssuerAnswer> {
    if (request.url.pathname === TOKEN_PATH) {
      if (request.method !== 'POST') return this.tokenError(405, 'invalid_request', 'The token endpoint takes POST.');
      return this.exchange(request);
    }
    if (request.method === 'GET') return this.authorizePage(request.url.searchParams);
    if (request.method === 'POST') return this.authorizeSubmit(request);
    return page(405, 'Method not allowed', '<p>The sign-in page takes GET and POST.</p>');
  }

  /** `GET /authorize`: the sign-in form, or the refusal (a redirect with `error`, or a page when the redirect is not ours). */
  private authorizePage(params: URLSearchParams): IssuerAnswer {
    const checked = this.check(params);
    if ('status' in checked) return checked;
    if ('redirectError' in checked) return this.redirectError(params, checked.redirectError);
    return this.form(checked.ok, null, 200);
  }

  /** `POST /authorize`: the form's answer; a member of that organisation with that email gets a code. */
  private async authorizeSubmit(request: IssuerRequest): Promise<IssuerAnswer> {
    if (!isForm(request.contentType))
      return page(
        400,
        'Sign-in refused',
        '<p>The sign-in form posts <code>application/x-www-form-urlencoded</code>.</p>',
      );
    const params = new URLSearchParams(request.body);
    const checked = this.check(params);
    if ('status' in checked) return checked;
    if ('redirectError' in checked) return this.redirectError(params, checked.redirectError);
    const orgId = (params.get('organization') ?? '').trim();
    const email = (params.get('email') ?? '').trim();
    const member = orgId && email ? await this.options.findMember(orgId, email) : null;
    if (!member) return this.form(checked.ok, 'No member of that organisation has that email.', 401);
    const code = base64url(randomBytes(32));
    this.forgetExpired();
    this.codes.set(code, {
      member,
      redirectUri: checked.ok.redirectUri,
      challenge: checked.ok.challenge,
      expiresAtMs: this.options.clock.nowMs() + AUTHORIZATION_CODE_SECONDS * 1000,
    });
    const target = new URL(checked.ok.redirectUri);
    target.searchParams.set('code', code);
    if (checked.ok.state !== null) target.searchParams.set('state', checked.ok.state);
    return { status: 302, headers: { Location: target.href, ...NO_STORE }, body: '' };
  }

  /**
   * RFC 6749 4.1.2.1: an unknown client or an unregistered redirect is told to the person, never
   * redirected to; anything else wrong goes back to the client as `error` in the redirect's query.
   */
  private check(params: URLSearchParams): Checked {
    const clientId = params.get('client_id');
    if (clientId !== this.options.clientId)
      return page(400, 'Sign-in refused', `<p>Unknown client <code>${escapeHtml(clientId ?? '(none)')}</code>.</p>`);
    const redirectUri = params.get('redirect_uri');
    if (redirectUri !== this.redirectUri)
      return page(
        400,
        'Sign-in refused',
        `<p>The redirect <code>${escapeHtml(redirectUri ?? '(none)')}</code> is not registered for this client: it is <code>${escapeHtml(this.redirectUri)}</code>.</p>`,
      );
    if (params.get('response_type') !== 'code')
      return {
        redirectError: {
          error: 'unsupported_response_type',
          description: 'Only the authorization code grant (response_type=code) is offered.',
        },
      };
    const challenge = params.get('code_challenge') ?? '';
    if (params.get('code_challenge_method') !== 'S256' || !S256_CHALLENGE.test(challenge))
      return {
        redirectError: {
          error: 'invalid_request',
          description: 'PKCE is required: code_challenge_method=S256 and a code_challenge of 43 base64url characters.',
        },
      };
    const scope = params.get('scope') ?? 'openid';
    if (!scope.split(' ').every((s) => SCOPES.has(s)))
      return { redirectError: { error: 'invalid_scope', description: 'The scopes offered are openid and email.' } };
    return { ok: { redirectUri, state: params.get('state'), challenge, scope } };
  }

  private redirectError(params: URLSearchParams, refusal: { error: string; description: string }): IssuerAnswer {
    const target = new URL(this.redirectUri);
    target.searchParams.set('error', refusal.error);
    target.searchParams.set('error_description', refusal.description);
    const state = params.get('state');
    if (state !== null) target.searchParams.set('state', state);
    return { status: 302, headers: { Location: target.href, ...NO_STORE }, body: '' };
  }

  private form(request: AuthorizationRequest, problem: string | null, status: number): IssuerAnswer {
    const hidden = {
      client_id: this.options.clientId,
      redirect_uri: request.redirectUri,
      response_type: 'code',
      code_challenge: request.challenge,
      code_challenge_method: 'S256',
      scope: request.scope,
      ...(request.state !== null ? { state: request.state } : {}),
    };
    return page(
      status,
      'Sign in · Automotive Inference (local)',
      `<h1>Sign in</h1>
<p>The local runtime signs people in itself. Name your organisation and your email as a member of it.</p>
${problem ? `<p id="sign-in-problem" role="alert"><strong>${escapeHtml(problem)}</strong></p>` : ''}
<form id="authorize" method="post" action="${AUTHORIZE_PATH}">
${Object.entries(hidden)
  .map(([name, value]) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`)
  .join('\n')}
<p><label>Organisation id<br><input name="organization" required placeholder="org_…" autocomplete="off"></label></p>
<p><label>Email<br><input name="email" type="email" required placeholder="owner@example.com"></label></p>
<button type="submit">Sign in</button>
</form>
<p class="note">No passwords locally: <code>npm start</code> prints the seeded organisation's id (<code>org_id</code> in <code>.local/credentials.json</code>), whose members include owner@example.com, admin@example.com and member@example.com. On AWS, Cognito's hosted UI asks for a password (and MFA where it is on).</p>`,
    );
  }

  /** `POST /token` (RFC 6749 4.1.3 and RFC 7636 4.6); errors are RFC 6749 5.2's JSON. */
  private async exchange(request: IssuerRequest): Promise<IssuerAnswer> {
    if (!isForm(request.contentType))
      return this.tokenError(400, 'invalid_request', 'The token request is application/x-www-form-urlencoded.');
    const params = new URLSearchParams(request.body);
    if (params.get('grant_type') !== 'authorization_code')
      return this.tokenError(400, 'unsupported_grant_type', 'Only grant_type=authorization_code is offered.');
    if (params.get('client_id') !== this.options.clientId)
      return this.tokenError(401, 'invalid_client', 'Unknown client_id.');
    const code = params.get('code');
    const verifier = params.get('code_verifier');
    const redirectUri = params.get('redirect_uri');
    if (!code || !verifier || !redirectUri)
      return this.tokenError(400, 'invalid_request', 'code, redirect_uri and code_verifier are required.');
    const issued = this.codes.get(code);
    // a code is spent by its first exchange, right or wrong, so a verifier cannot be guessed at
    this.codes.delete(code);
    if (!issued) return this.tokenError(400, 'invalid_grant', 'The code is unknown or already used.');
    if (this.options.clock.nowMs() >= issued.expiresAtMs)
      return this.tokenError(400, 'invalid_grant', 'The code has expired.');
    if (redirectUri !== issued.redirectUri)
      return this.tokenError(400, 'invalid_grant', 'redirect_uri is not the one the code was issued for.');
    if (!VERIFIER.test(verifier) || base64url(createHash('sha256').update(verifier).digest()) !== issued.challenge)
      return this.tokenError(400, 'invalid_grant', 'code_verifier does not match the code_challenge.');
    const token = await this.options.sign(issued.member);
    return {
      status: 200,
      headers: { 'Content-Type': 'application/json', ...NO_STORE },
      // the dashboard keeps the ID token; nothing here reads an access token, so it is the same JWT
      body: JSON.stringify({
        id_token: token,
        access_token: token,
        token_type: 'Bearer',
        expires_in: DASHBOARD_TOKEN_SECONDS,
      }),
    };
  }

  private tokenError(status: number, error: string, description: string): IssuerAnswer {
    return {
      status,
      headers: { 'Content-Type': 'application/json', ...NO_STORE },
      body: JSON.stringify({ error, error_description: description }),
    };
  }

  private forgetExpired(): void {
    const now = this.options.clock.nowMs();
    for (const [code, issued] of this.codes) if (now >= issued.expiresAtMs) this.codes.delete(code);
  }
}

function isForm(contentType: string | undefined): boolean {
  return /^application\/x-www-form-urlencoded\b/i.test(contentType ?? '');
}

function page(status: number, title: string, body: string): IssuerAnswer {
  const html = htmlPage(title, body, status);
  return { status, headers: { 'Content-Type': html.contentType, ...NO_STORE }, body: html.body };
}
