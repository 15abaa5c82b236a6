import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedUserId } from '../../../lambdas/domain/access/members.js';
import { AUTHORIZATION_CODE_SECONDS } from '../../../local/local-authorization.js';
import { MANAGEMENT_AUDIENCE } from '../../../local/local-issuer.js';
import { startTestService, type TestService } from '../../support/service.js';

/**
 * The local issuer's authorisation code grant with PKCE (local/local-authorization.ts): what the
 * dashboard signs in with under `npm start`, as it does with Cognito's hosted UI on AWS.
 */
let svc: TestService;

beforeAll(async () => {
  svc = await startTestService();
}, 60_000);

afterAll(async () => {
  await svc?.stop();
});

const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };

function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

function authorizeParams(challenge: string, overrides: Record<string, string | null> = {}): URLSearchParams {
  const params: Record<string, string | null> = {
    client_id: MANAGEMENT_AUDIENCE,
    response_type: 'code',
    scope: 'openid',
    redirect_uri: `${svc.baseUrl}/dashboard/login`,
    state: 'st-123',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...overrides,
  };
  return new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => e[1] !== null));
}

/** The sign-in form's answer: where the issuer sends the browser. */
async function submit(params: URLSearchParams, person = { organization: '', email: 'admin@example.com' }) {
  const body = new URLSearchParams(params);
  body.set('organization', person.organization || svc.org.organization.id);
  body.set('email', person.email);
  return fetch(`${svc.baseUrl}/local/oauth2/authorize`, { method: 'POST', headers: FORM, body, redirect: 'manual' });
}

/** A fresh code for the seeded admin (the test organisations' owner has no email), and the verifier that goes with it. */
async function freshCode(): Promise<{ code: string; verifier: string }> {
  const { verifier, challenge } = pkce();
  const answer = await submit(authorizeParams(challenge));
  expect(answer.status).toBe(302);
  return { code: new URL(answer.headers.get('location')!).searchParams.get('code')!, verifier };
}

async function exchange(fields: Record<string, string>) {
  const answer = await fetch(`${svc.baseUrl}/local/oauth2/token`, {
    method: 'POST',
    headers: FORM,
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      client_id: MANAGEMENT_AUDIENCE,
      redirect_uri: `${svc.baseUrl}/dashboard/login`,
      ...fields,
    }),
  });
  return { status: answer.status, headers: answer.headers, body: (await answer.json()) as Record<string, unknown> };
}

const refusal = (error: string) => ({ error, error_description: expect.any(String) });

describe('the local issuer’s authorisation page', () => {
  it('shows the sign-in form for the dashboard’s client with a PKCE challenge', async () => {
    const answer = await fetch(`${svc.baseUrl}/local/oauth2/authorize?${authorizeParams(pkce().challenge)}`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.headers.get('content-security-policy')).toContain("form-action 'self'");
    const html = await answer.text();
    expect(html).toContain('<form id="authorize" method="post" action="/local/oauth2/authorize">');
    expect(html).toContain('name="code_challenge_method" value="S256"');
  });

  it('answers a member with a one-time code and the state in the redirect’s query, never a token', async () => {
    const answer = await submit(authorizeParams(pkce().challenge));
    expect(answer.status).toBe(302);
    const location = answer.headers.get('location')!;
    expect(location).not.toContain('#');
    expect(location).not.toMatch(/token/);
    const target = new URL(location);
    expect(target.origin + target.pathname).toBe(`${svc.baseUrl}/dashboard/login`);
    expect([...target.searchParams.keys()].sort()).toEqual(['code', 'state']);
    expect(target.searchParams.get('state')).toBe('st-123');
    expect(target.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('gives no code to someone who is not a member of that organisation', async () => {
    for (const person of [
      { organization: svc.org.organization.id, email: 'stranger@example.com' },
      { organization: 'org_doesnotexist', email: 'admin@example.com' },
    ]) {
      const answer = await submit(authorizeParams(pkce().challenge), person);
      expect(answer.status).toBe(401);
      expect(await answer.text()).toContain('No member of that organisation has that email.');
    }
  });

  it('refuses the implicit grant and a missing or plain PKCE challenge back to the client, with the state', async () => {
    const { challenge } = pkce();
    const cases: Array<[Record<string, string | null>, string]> = [
      [{ response_type: 'token' }, 'unsupported_response_type'],
      [{ code_challenge: null, code_challenge_method: null }, 'invalid_request'],
      [{ code_challenge_method: 'plain' }, 'invalid_request'],
      [{ scope: 'openid aws.cognito.signin.user.admin' }, 'invalid_scope'],
    ];
    for (const [overrides, error] of cases) {
      for (const answer of [
        await fetch(`${svc.baseUrl}/local/oauth2/authorize?${authorizeParams(challenge, overrides)}`, {
          redirect: 'manual',
        }),
        await submit(authorizeParams(challenge, overrides)),
      ]) {
        expect(answer.status, error).toBe(302);
        const target = new URL(answer.headers.get('location')!);
        expect(target.searchParams.get('error')).toBe(error);
        expect(target.searchParams.get('state')).toBe('st-123');
        expect(target.searchParams.has('code')).toBe(false);
      }
    }
  });

  it('never redirects to an address not registered for the client, nor for an unknown client', async () => {
    const cases: Array<Record<string, string>> = [
      { redirect_uri: 'https://attacker.example/dashboard/login' },
      { client_id: 'other' },
    ];
    for (const overrides of cases) {
      for (const answer of [
        await fetch(`${svc.baseUrl}/local/oauth2/authorize?${authorizeParams(pkce().challenge, overrides)}`, {
          redirect: 'manual',
        }),
        await submit(authorizeParams(pkce().challenge, overrides)),
      ]) {
        expect(answer.status).toBe(400);
        expect(answer.headers.get('location')).toBeNull();
        expect(await answer.text()).toMatch(/not registered|Unknown client/);
      }
    }
  });
});

describe('the local issuer’s token endpoint', () => {
  it('exchanges a code and its verifier for a 15-minute dashboard token of that member', async () => {
    const { code, verifier } = await freshCode();
    const answer = await exchange({ code, code_verifier: verifier });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.body).toEqual({
      id_token: expect.any(String),
      access_token: answer.body.id_token,
      token_type: 'Bearer',
      expires_in: 900,
    });
    const claims = JSON.parse(
      Buffer.from(String(answer.body.id_token).split('.')[1]!, 'base64url').toString(),
    ) as Record<string, unknown>;
    expect(claims).toMatchObject({
      iss: svc.baseUrl,
      aud: MANAGEMENT_AUDIENCE,
      org_id: svc.org.organization.id,
      role: 'admin',
      sub: seedUserId(svc.org.organization.id, 'admin'),
    });
    const organization = await fetch(`${svc.baseUrl}/mgmt/v1/organization`, {
      headers: { Authorization: `Bearer ${answer.body.id_token}` },
    });
    expect(organization.status).toBe(200);
    expect(((await organization.json()) as { id: string }).id).toBe(svc.org.organization.id);
  });

  it('refuses a wrong verifier with invalid_grant, and the code is spent by the attempt', async () => {
    const { code, verifier } = await freshCode();
    const wrong = await exchange({ code, code_verifier: pkce().verifier });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual(refusal('invalid_grant'));
    expect(wrong.body.error_description).toMatch(/code_verifier/);
    expect((await exchange({ code, code_verifier: verifier })).body).toEqual(refusal('invalid_grant'));
  });

  it('refuses a code used a second time', async () => {
    const { code, verifier } = await freshCode();
    expect((await exchange({ code, code_verifier: verifier })).status).toBe(200);
    const again = await exchange({ code, code_verifier: verifier });
    expect(again.status).toBe(400);
    expect(again.body).toEqual(refusal('invalid_grant'));
  });

  it('refuses a code older than 5 minutes', async () => {
    const { code, verifier } = await freshCode();
    svc.clock.advance(AUTHORIZATION_CODE_SECONDS * 1000);
    try {
      const late = await exchange({ code, code_verifier: verifier });
      expect(late.status).toBe(400);
      expect(late.body).toEqual({ error: 'invalid_grant', error_description: 'The code has expired.' });
    } finally {
      svc.clock.reset();
    }
  });

  it('refuses a redirect_uri other than the one the code was issued for', async () => {
    const { code, verifier } = await freshCode();
    const elsewhere = await exchange({
      code,
      code_verifier: verifier,
      redirect_uri: `${svc.baseUrl}/dashboard/login/elsewhere`,
    });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body).toEqual(refusal('invalid_grant'));
  });

  it('refuses an unknown client, another grant, a missing verifier and a body that is not a form', async () => {
    const { code, verifier } = await freshCode();
    const client = await exchange({ code, code_verifier: verifier, client_id: 'someone-else' });
    expect(client.status).toBe(401);
    expect(client.body).toEqual(refusal('invalid_client'));
    expect((await exchange({ code, code_verifier: verifier, grant_type: 'refresh_token' })).body).toEqual(
      refusal('unsupported_grant_type'),
    );
    expect((await exchange({ code })).body).toEqual(refusal('invalid_request'));
    const json = await fetch(`${svc.baseUrl}/local/oauth2/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ grant_type: 'authorization_code', code, code_verifier: verifier }),
    });
    expect(json.status).toBe(400);
    expect(await json.json()).toEqual(refusal('invalid_request'));
  });
});
