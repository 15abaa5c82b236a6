import { describe, expect, it } from 'vitest';
import { type ApiResponse, call, expectEnvelope } from '../../support/http.js';
import { asRole } from '../../support/management.js';
import { sharedTestService } from '../../support/service.js';

const svc = sharedTestService();

const withToken = (token: string, method: string, path: string, json?: unknown): Promise<ApiResponse> =>
  call(svc.baseUrl, method, path, { key: token, ...(json === undefined ? {} : { json }) });

/** The token a local sign-in link carries in its fragment. */
function tokenOf(link: string): string {
  const url = new URL(link);
  expect(url.pathname).toBe('/dashboard/login');
  expect(url.search).toBe('');
  const token = new URLSearchParams(url.hash.slice(1)).get('token');
  expect(token).toBeTruthy();
  return token!;
}

let emails = 0;
const freshEmail = () => `person${(emails += 1)}.${Date.now()}@Example.com`;

/** Invites a person as `role` (by the main organisation's owner) and answers their member id and token. */
async function invited(role: 'owner' | 'admin' | 'member'): Promise<{ id: string; token: string }> {
  const answer = await asRole(svc, 'owner', 'POST', '/mgmt/v1/members', { json: { email: freshEmail(), role } });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return { id: answer.body.id, token: tokenOf(answer.body.invite_url) };
}

/** A new organisation through the local sign-up: its founder is its only owner. */
async function signUp(name = 'Solo Garage'): Promise<{ body: any; ownerToken: string }> {
  const answer = await call(svc.baseUrl, 'POST', '/local/signup', {
    json: { organization_name: name, email: freshEmail() },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return { body: answer.body, ownerToken: tokenOf(answer.body.login_url) };
}

describe('inviting members', () => {
  it('an owner invites a member: the record, a local sign-in link, and the person signs in at once', async () => {
    const email = freshEmail();
    const answer = await asRole(svc, 'owner', 'POST', '/mgmt/v1/members', { json: { email, role: 'member' } });
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({
      id: expect.stringMatching(/^usr_[1-9A-HJ-NP-Za-km-z]{22}$/),
      object: 'member',
      email: email.toLowerCase(),
      role: 'member',
      status: 'invited',
      created: expect.any(Number),
      invite_url: expect.stringContaining(`${svc.baseUrl}/dashboard/login#token=`),
    });
    const token = tokenOf(answer.body.invite_url);
    const organization = await withToken(token, 'GET', '/mgmt/v1/organization');
    expect(organization.status).toBe(200);
    expect(organization.body.id).toBe(svc.org.organization.id);
    // the first signed-in request makes the invitation active
    const listed = (await asRole(svc, 'member', 'GET', '/mgmt/v1/members')).body;
    expect(listed).toMatchObject({ object: 'list', has_more: false });
    expect(listed.data.find((member: { id: string }) => member.id === answer.body.id)).toMatchObject({
      status: 'active',
      role: 'member',
    });
    expect(listed.data.every((member: object) => !('invite_url' in member))).toBe(true);
  });

  it('an admin invites members and admins', async () => {
    for (const role of ['member', 'admin'] as const) {
      const answer = await asRole(svc, 'admin', 'POST', '/mgmt/v1/members', { json: { email: freshEmail(), role } });
      expect(answer.status).toBe(201);
      expect(answer.body.role).toBe(role);
    }
  });

  it('a member cannot invite anyone, and nobody is added', async () => {
    const before = (await asRole(svc, 'owner', 'GET', '/mgmt/v1/members')).body.data.length;
    const email = freshEmail();
    expectEnvelope(
      await asRole(svc, 'member', 'POST', '/mgmt/v1/members', { json: { email, role: 'member' } }),
      403,
      'permission',
      'scope_not_granted',
    );
    const after = (await asRole(svc, 'owner', 'GET', '/mgmt/v1/members')).body.data;
    expect(after).toHaveLength(before);
    expect(after.some((member: { email: string }) => member.email === email.toLowerCase())).toBe(false);
  });

  it('an admin cannot invite an owner; an owner can', async () => {
    const email = freshEmail();
    expectEnvelope(
      await asRole(svc, 'admin', 'POST', '/mgmt/v1/members', { json: { email, role: 'owner' } }),
      403,
      'permission',
      'scope_not_granted',
      'role',
    );
    const owner = await asRole(svc, 'owner', 'POST', '/mgmt/v1/members', { json: { email, role: 'owner' } });
    expect(owner.status).toBe(201);
    expect(owner.body.role).toBe('owner');
  });

  it('the same email twice (in any case) is 409 member_already_exists', async () => {
    const email = freshEmail();
    expect((await asRole(svc, 'owner', 'POST', '/mgmt/v1/members', { json: { email, role: 'member' } })).status).toBe(
      201,
    );
    const again = await asRole(svc, 'owner', 'POST', '/mgmt/v1/members', {
      json: { email: email.toUpperCase(), role: 'admin' },
    });
    expectEnvelope(again, 409, 'conflict', 'member_already_exists', 'email');
  });

  it('a replayed invitation (same Idempotency-Key) adds nobody and never shows the sign-in link again', async () => {
    const headers = { 'Idempotency-Key': `invite-${Date.now()}` };
    const json = { email: freshEmail(), role: 'member' };
    const first = await asRole(svc, 'owner', 'POST', '/mgmt/v1/members', { json, headers });
    const replay = await asRole(svc, 'owner', 'POST', '/mgmt/v1/members', { json, headers });
    expect(first.body.invite_url).toBeTruthy();
    expect(replay.status).toBe(201);
    expect(replay.body.id).toBe(first.body.id);
    expect(replay.body).not.toHaveProperty('invite_url');
    const members = (await asRole(svc, 'owner', 'GET', '/mgmt/v1/members')).body.data;
    expect(members.filter((member: { email: string }) => member.email === json.email.toLowerCase())).toHaveLength(1);
  });

  it('bad bodies are 400 with the offending param, and add nobody', async () => {
    const before = (await asRole(svc, 'owner', 'GET', '/mgmt/v1/members')).body.data.length;
    expectEnvelope(
      await asRole(svc, 'owner', 'POST', '/mgmt/v1/members', { json: { email: 'not-an-email', role: 'member' } }),
      400,
      'invalid_request',
      'parameter_invalid',
      'email',
    );
    expectEnvelope(
      await asRole(svc, 'owner', 'POST', '/mgmt/v1/members', { json: { email: freshEmail(), role: 'superuser' } }),
      400,
      'invalid_request',
      'parameter_invalid',
      'role',
    );
    expectEnvelope(
      await asRole(svc, 'owner', 'POST', '/mgmt/v1/members', { json: { role: 'member' } }),
      400,
      'invalid_request',
      'parameter_missing',
      'email',
    );
    expectEnvelope(
      await asRole(svc, 'owner', 'POST', '/mgmt/v1/members', {
        json: { email: freshEmail(), role: 'member', org_id: 'org_x' },
      }),
      400,
      'invalid_request',
      'parameter_unknown',
      'org_id',
    );
    expect((await asRole(svc, 'owner', 'GET', '/mgmt/v1/members')).body.data).toHaveLength(before);
  });
});

describe('changing roles', () => {
  it('a demotion holds on the very next request, with the same still-valid token', async () => {
    const admin = await invited('admin');
    const createKey = () => withToken(admin.token, 'POST', '/mgmt/v1/api-keys', { name: 'by admin', livemode: false });
    expect((await createKey()).status).toBe(201);
    const demoted = await asRole(svc, 'owner', 'POST', `/mgmt/v1/members/${admin.id}`, { json: { role: 'member' } });
    expect(demoted.status).toBe(200);
    expect(demoted.body).toMatchObject({ id: admin.id, object: 'member', role: 'member' });
    expectEnvelope(await createKey(), 403, 'permission', 'scope_not_granted');
    // still a member: reading goes on
    expect((await withToken(admin.token, 'GET', '/mgmt/v1/api-keys')).status).toBe(200);
    // and a promotion holds as fast
    expect(
      (await asRole(svc, 'owner', 'POST', `/mgmt/v1/members/${admin.id}`, { json: { role: 'admin' } })).status,
    ).toBe(200);
    expect((await createKey()).status).toBe(201);
  });

  it('a member cannot change roles; an admin cannot make owners or change an owner', async () => {
    const person = await invited('member');
    expectEnvelope(
      await asRole(svc, 'member', 'POST', `/mgmt/v1/members/${person.id}`, { json: { role: 'admin' } }),
      403,
      'permission',
      'scope_not_granted',
    );
    expectEnvelope(
      await asRole(svc, 'admin', 'POST', `/mgmt/v1/members/${person.id}`, { json: { role: 'owner' } }),
      403,
      'permission',
      'scope_not_granted',
      'role',
    );
    const owner = await invited('owner');
    expectEnvelope(
      await asRole(svc, 'admin', 'POST', `/mgmt/v1/members/${owner.id}`, { json: { role: 'member' } }),
      403,
      'permission',
      'scope_not_granted',
      'id',
    );
    expectEnvelope(
      await asRole(svc, 'admin', 'DELETE', `/mgmt/v1/members/${owner.id}`),
      403,
      'permission',
      'scope_not_granted',
      'id',
    );
    const members = (await asRole(svc, 'owner', 'GET', '/mgmt/v1/members')).body.data;
    expect(members.find((m: { id: string }) => m.id === person.id).role).toBe('member');
    expect(members.find((m: { id: string }) => m.id === owner.id).role).toBe('owner');
    // an admin may promote a member to admin
    expect(
      (await asRole(svc, 'admin', 'POST', `/mgmt/v1/members/${person.id}`, { json: { role: 'admin' } })).body.role,
    ).toBe('admin');
  });
});

describe('removing members', () => {
  it('a removal holds on the very next request, with the same still-valid token', async () => {
    const person = await invited('admin');
    expect((await withToken(person.token, 'GET', '/mgmt/v1/organization')).status).toBe(200);
    const removed = await asRole(svc, 'admin', 'DELETE', `/mgmt/v1/members/${person.id}`);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ id: person.id, object: 'member', deleted: true });
    expectEnvelope(
      await withToken(person.token, 'GET', '/mgmt/v1/organization'),
      401,
      'authentication',
      'invalid_token',
      'Authorization',
    );
    expectEnvelope(
      await withToken(person.token, 'POST', '/mgmt/v1/api-keys', { name: 'after removal', livemode: false }),
      401,
      'authentication',
      'invalid_token',
    );
    const members = (await asRole(svc, 'owner', 'GET', '/mgmt/v1/members')).body.data;
    expect(members.some((m: { id: string }) => m.id === person.id)).toBe(false);
    expectEnvelope(
      await asRole(svc, 'owner', 'DELETE', `/mgmt/v1/members/${person.id}`),
      404,
      'not_found',
      'member_not_found',
      'id',
    );
  });

  it('a member cannot remove anyone', async () => {
    const person = await invited('member');
    expectEnvelope(
      await asRole(svc, 'member', 'DELETE', `/mgmt/v1/members/${person.id}`),
      403,
      'permission',
      'scope_not_granted',
    );
    expect((await withToken(person.token, 'GET', '/mgmt/v1/organization')).status).toBe(200);
  });

  it("another organisation's member is 403; an absent or malformed id is 404", async () => {
    const theirs = (await asRole(svc, 'owner', 'GET', '/mgmt/v1/members', { org: svc.otherOrg })).body.data[0].id;
    expectEnvelope(
      await asRole(svc, 'owner', 'DELETE', `/mgmt/v1/members/${theirs}`),
      403,
      'permission',
      'scope_not_granted',
      null,
    );
    expectEnvelope(
      await asRole(svc, 'owner', 'POST', `/mgmt/v1/members/${theirs}`, { json: { role: 'member' } }),
      403,
      'permission',
      'scope_not_granted',
      null,
    );
    expectEnvelope(
      await asRole(svc, 'owner', 'DELETE', '/mgmt/v1/members/usr_1111111111111111111111'),
      404,
      'not_found',
      'member_not_found',
      'id',
    );
    expectEnvelope(
      await asRole(svc, 'owner', 'POST', '/mgmt/v1/members/someone', { json: { role: 'member' } }),
      404,
      'not_found',
      'member_not_found',
      'id',
    );
    expect(
      (await asRole(svc, 'owner', 'GET', '/mgmt/v1/members', { org: svc.otherOrg })).body.data.some(
        (m: { id: string }) => m.id === theirs,
      ),
    ).toBe(true);
  });
});

describe('the last owner', () => {
  it('cannot be demoted or removed (409 last_owner); with a second owner both work', async () => {
    const { body, ownerToken } = await signUp();
    const founder = body.member.id;
    expectEnvelope(
      await withToken(ownerToken, 'POST', `/mgmt/v1/members/${founder}`, { role: 'admin' }),
      409,
      'conflict',
      'last_owner',
      'role',
    );
    expectEnvelope(
      await withToken(ownerToken, 'DELETE', `/mgmt/v1/members/${founder}`),
      409,
      'conflict',
      'last_owner',
      'id',
    );
    expect((await withToken(ownerToken, 'GET', '/mgmt/v1/members')).body.data).toEqual([
      expect.objectContaining({ id: founder, role: 'owner' }),
    ]);

    const second = await withToken(ownerToken, 'POST', '/mgmt/v1/members', { email: freshEmail(), role: 'owner' });
    const secondToken = tokenOf(second.body.invite_url);
    expect((await withToken(ownerToken, 'POST', `/mgmt/v1/members/${founder}`, { role: 'admin' })).status).toBe(200);
    // now the second is the last owner
    expectEnvelope(
      await withToken(secondToken, 'DELETE', `/mgmt/v1/members/${second.body.id}`),
      409,
      'conflict',
      'last_owner',
      'id',
    );
    expect((await withToken(secondToken, 'DELETE', `/mgmt/v1/members/${founder}`)).status).toBe(200);
  });

  it('two owners demoting each other at the same moment leave exactly one owner', async () => {
    const { body, ownerToken } = await signUp('Race Garage');
    const second = await withToken(ownerToken, 'POST', '/mgmt/v1/members', { email: freshEmail(), role: 'owner' });
    const secondToken = tokenOf(second.body.invite_url);
    const answers = await Promise.all([
      withToken(ownerToken, 'POST', `/mgmt/v1/members/${second.body.id}`, { role: 'member' }),
      withToken(secondToken, 'POST', `/mgmt/v1/members/${body.member.id}`, { role: 'member' }),
    ]);
    const statuses = answers.map((answer) => answer.status).sort();
    // the loser is refused as the last owner, or (demoted first) no longer allowed to change roles
    expect(statuses[0]).toBe(200);
    expect([403, 409]).toContain(statuses[1]);
    const members = (await withToken(answers[0]!.status === 200 ? ownerToken : secondToken, 'GET', '/mgmt/v1/members'))
      .body.data;
    expect(members.filter((m: { role: string }) => m.role === 'owner')).toHaveLength(1);
  });
});

describe('sign-up and sign-in (local)', () => {
  it('GET /mgmt/v1/sign-in says the local runtime signs people in with the code grant, and where to sign up', async () => {
    const options = await call(svc.baseUrl, 'GET', '/mgmt/v1/sign-in');
    expect(options.status).toBe(200);
    expect(options.body).toEqual({
      object: 'sign_in_options',
      provider: 'local',
      sign_in_url: `${svc.baseUrl}/local/oauth2/authorize?client_id=automotive-inference-mgmt&response_type=code&scope=openid`,
      sign_up_url: `${svc.baseUrl}/dashboard/signup`,
      token_url: `${svc.baseUrl}/local/oauth2/token`,
      client_id: 'automotive-inference-mgmt',
    });
  });

  it('POST /local/signup creates an organisation on the lowest plan with 10,000 test credits, its owner signed in, isolated from the others', async () => {
    const { body, ownerToken } = await signUp('Acme Motors');
    expect(body.organization).toMatchObject({
      object: 'organization',
      name: 'Acme Motors',
      plan: 'free',
      balance: { live: 0, test: 10_000 },
    });
    expect(body.member).toMatchObject({ object: 'member', role: 'owner', status: 'active' });
    const orgId = body.organization.id;
    expect(orgId).not.toBe(svc.org.organization.id);
    expect((await withToken(ownerToken, 'GET', '/mgmt/v1/organization')).body).toEqual(body.organization);
    const ledger = (await withToken(ownerToken, 'GET', '/mgmt/v1/ledger')).body.data;
    expect(ledger).toEqual([expect.objectContaining({ kind: 'deposit', amount: 10_000, livemode: false })]);
    // nothing of the seeded organisation shows, and no key was made
    expect((await withToken(ownerToken, 'GET', '/mgmt/v1/api-keys')).body.data).toEqual([]);
    expect((await withToken(ownerToken, 'GET', '/mgmt/v1/members')).body.data.map((m: { id: string }) => m.id)).toEqual(
      [body.member.id],
    );
    // its owner can make a key and spend test credits at once
    const key = await withToken(ownerToken, 'POST', '/mgmt/v1/api-keys', { name: 'first', livemode: false });
    expect(key.status).toBe(201);
    expect((await call(svc.baseUrl, 'GET', '/v1/jobs', { key: key.body.secret })).body.data).toEqual([]);
  });

  it('a bad sign-up is 400 and creates nothing', async () => {
    expectEnvelope(
      await call(svc.baseUrl, 'POST', '/local/signup', { json: { organization_name: '', email: freshEmail() } }),
      400,
      'invalid_request',
      'parameter_invalid',
      'organization_name',
    );
    expectEnvelope(
      await call(svc.baseUrl, 'POST', '/local/signup', { json: { organization_name: 'X', email: 'nope' } }),
      400,
      'invalid_request',
      'parameter_invalid',
      'email',
    );
  });
});
