import { exportSPKI, generateKeyPair, importJWK, SignJWT, UnsecuredJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { authenticateApiKey } from '../../../../lambdas/domain/access/api-keys.js';
import { ROLES, type Role } from '../../../../lambdas/domain/access/member.js';
import { createApiKey } from '../../../../lambdas/domain/access/organizations.js';
import { createBatch } from '../../../../lambdas/domain/batches/batches.js';
import { presentJob } from '../../../../lambdas/domain/jobs/job-view.js';
import { epochSeconds } from '../../../../lambdas/domain/kernel/clock.js';
import { randomId, timeOrderedId } from '../../../../lambdas/domain/kernel/ids.js';
import { createWebhookEndpoint } from '../../../../lambdas/domain/webhooks/endpoints.js';
import { functionName } from '../../../../lambdas/http/routes/define.js';
import { ROUTES } from '../../../../lambdas/http/routes/index.js';
import { type ApiResponse, call, expectEnvelope, formWith, imageFile } from '../../../support/http.js';
import { asRole, tokenFor } from '../../../support/management.js';
import { sharedTestService } from '../../../support/service.js';
import { uploadFile } from '../../../support/uploads.js';

let jobId: string;

const svc = sharedTestService();
beforeAll(async () => {
  const created = await call(svc.baseUrl, 'POST', '/v1/plate.read', {
    key: svc.org.testKey,
    form: formWith('image', [imageFile()]),
  });
  jobId = created.body.id;
});

const now = () => epochSeconds(svc.clock);
const orgId = () => svc.org.organization.id;
const organization = (token: string) => call(svc.baseUrl, 'GET', '/mgmt/v1/organization', { key: token });
const claims = (role: Role = 'owner') => ({ org_id: orgId(), role });

/** Signs with the runtime's real key, so only the property under test is wrong. */
function signed(
  payload: Record<string, unknown>,
  configure: (jwt: SignJWT) => SignJWT = (jwt) => jwt,
): Promise<string> {
  const jwt = new SignJWT(payload)
    .setProtectedHeader({ alg: 'ES256', kid: svc.issuer.key.kid, typ: 'JWT' })
    .setIssuer(svc.issuer.issuer)
    .setAudience(svc.issuer.audience)
    .setSubject('usr_attacker1')
    .setIssuedAt(now())
    .setExpirationTime(now() + 600);
  return configure(jwt).sign(svc.issuer.key.privateKey);
}

describe('GET /.well-known/jwks.json', () => {
  it('publishes the ES256 public key without authentication, and no private part', async () => {
    const response = await call(svc.baseUrl, 'GET', '/.well-known/jwks.json');
    expect(response.status).toBe(200);
    expect(response.body.keys).toHaveLength(1);
    expect(response.body.keys[0]).toMatchObject({
      kty: 'EC',
      crv: 'P-256',
      alg: 'ES256',
      use: 'sig',
      kid: svc.issuer.key.kid,
    });
    expect(response.body.keys[0]).not.toHaveProperty('d');
  });
});

describe('dashboard tokens', () => {
  it('accepts a token from the issuer for every role, including one living exactly 15 minutes', async () => {
    for (const role of ROLES) expect((await organization(await tokenFor(svc, role))).status).toBe(200);
    expect((await organization(await svc.issuer.token(orgId(), 'member', { lifetimeSeconds: 900 }))).status).toBe(200);
  });

  const attacks: Array<[string, () => Promise<string>]> = [
    ['a wrong issuer', () => svc.issuer.token(orgId(), 'owner', { issuer: 'https://evil.example' })],
    ['a wrong audience', () => svc.issuer.token(orgId(), 'owner', { audience: 'some-other-api' })],
    ['an expired token', () => svc.issuer.token(orgId(), 'owner', { nowSeconds: now() - 3600 })],
    [
      'a token that is not yet valid (nbf in the future)',
      () => signed(claims(), (jwt) => jwt.setNotBefore(now() + 600)),
    ],
    [
      'a token issued in the future',
      () => signed(claims(), (jwt) => jwt.setIssuedAt(now() + 600).setExpirationTime(now() + 900)),
    ],
    [
      'alg none',
      async () =>
        new UnsecuredJWT(claims())
          .setIssuer(svc.issuer.issuer)
          .setAudience(svc.issuer.audience)
          .setSubject('usr_x')
          .setIssuedAt(now())
          .setExpirationTime(now() + 600)
          .encode(),
    ],
    [
      'HS256 keyed with the public key',
      async () => {
        const pem = await exportSPKI(
          (await importJWK(svc.issuer.key.publicJwk, 'ES256', { extractable: true })) as Parameters<
            typeof exportSPKI
          >[0],
        );
        return new SignJWT(claims())
          .setProtectedHeader({ alg: 'HS256', kid: svc.issuer.key.kid })
          .setIssuer(svc.issuer.issuer)
          .setAudience(svc.issuer.audience)
          .setSubject('usr_x')
          .setIssuedAt(now())
          .setExpirationTime(now() + 600)
          .sign(new TextEncoder().encode(pem));
      },
    ],
    [
      'an unknown kid',
      async () => {
        const attacker = await generateKeyPair('ES256');
        return new SignJWT(claims())
          .setProtectedHeader({ alg: 'ES256', kid: 'attacker-key' })
          .setIssuer(svc.issuer.issuer)
          .setAudience(svc.issuer.audience)
          .setSubject('usr_x')
          .setIssuedAt(now())
          .setExpirationTime(now() + 600)
          .sign(attacker.privateKey);
      },
    ],
    [
      "another key presenting the issuer's kid",
      async () => {
        const attacker = await generateKeyPair('ES256');
        return new SignJWT(claims())
          .setProtectedHeader({ alg: 'ES256', kid: svc.issuer.key.kid })
          .setIssuer(svc.issuer.issuer)
          .setAudience(svc.issuer.audience)
          .setSubject('usr_x')
          .setIssuedAt(now())
          .setExpirationTime(now() + 600)
          .sign(attacker.privateKey);
      },
    ],
    [
      'a tampered payload (member promoted to owner)',
      async () => {
        const [header, payload, signature] = (await tokenFor(svc, 'member')).split('.');
        const forged = { ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), role: 'owner' };
        return `${header}.${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${signature}`;
      },
    ],
    ['exp more than 15 minutes after iat', () => svc.issuer.token(orgId(), 'owner', { lifetimeSeconds: 901 })],
    [
      'no iat',
      () =>
        new SignJWT(claims())
          .setProtectedHeader({ alg: 'ES256', kid: svc.issuer.key.kid })
          .setIssuer(svc.issuer.issuer)
          .setAudience(svc.issuer.audience)
          .setSubject('usr_x')
          .setExpirationTime(now() + 600)
          .sign(svc.issuer.key.privateKey),
    ],
    ['no org_id', () => signed({ role: 'owner' })],
    ['no role', () => signed({ org_id: orgId() })],
    ['an unknown role', () => signed({ org_id: orgId(), role: 'superuser' })],
    [
      'no sub',
      () =>
        new SignJWT(claims())
          .setProtectedHeader({ alg: 'ES256', kid: svc.issuer.key.kid })
          .setIssuer(svc.issuer.issuer)
          .setAudience(svc.issuer.audience)
          .setIssuedAt(now())
          .setExpirationTime(now() + 600)
          .sign(svc.issuer.key.privateKey),
    ],
    ['garbage', async () => 'not.a.jwt'],
    ['an API key', async () => svc.org.testKey],
    ['a live API key', async () => svc.org.liveKey],
  ];

  for (const [name, make] of attacks) {
    it(`refuses ${name} with 401 invalid_token`, async () => {
      expectEnvelope(await organization(await make()), 401, 'authentication', 'invalid_token', 'Authorization');
    });
  }

  it('refuses a missing or non-bearer Authorization header', async () => {
    expectEnvelope(await call(svc.baseUrl, 'GET', '/mgmt/v1/organization'), 401, 'authentication', 'invalid_token');
    expectEnvelope(
      await call(svc.baseUrl, 'GET', '/mgmt/v1/organization', {
        headers: { Authorization: `Basic ${await tokenFor(svc, 'owner')}` },
      }),
      401,
      'authentication',
      'invalid_token',
    );
  });

  it('a token stops working once it expires on the clock', async () => {
    const token = await tokenFor(svc, 'owner');
    expect((await organization(token)).status).toBe(200);
    svc.clock.advance(15 * 60 * 1000 + 10_000);
    expectEnvelope(await organization(token), 401, 'authentication', 'invalid_token');
  });

  it('refuses dashboard tokens on the inference surface', async () => {
    const token = await tokenFor(svc, 'owner');
    expectEnvelope(
      await call(svc.baseUrl, 'GET', '/v1/jobs', { key: token }),
      401,
      'authentication',
      'invalid_api_key',
    );
    expectEnvelope(
      await call(svc.baseUrl, 'POST', '/v1/plate.read', { key: token, form: formWith('image', [imageFile()]) }),
      401,
      'authentication',
      'invalid_api_key',
    );
  });
});

/** One valid request per JWT route; each call gets fresh resources so every role can be tried. */
const REQUESTS: Record<string, () => Promise<{ method: string; path: string; json?: unknown }>> = {
  'get-organization': async () => ({ method: 'GET', path: '/mgmt/v1/organization' }),
  'list-api-keys': async () => ({ method: 'GET', path: '/mgmt/v1/api-keys' }),
  'create-api-key': async () => ({
    method: 'POST',
    path: '/mgmt/v1/api-keys',
    json: { name: 'matrix', livemode: false },
  }),
  'revoke-api-key': async () => ({
    method: 'POST',
    path: `/mgmt/v1/api-keys/${(await createApiKey(svc.services, orgId(), { name: 'r', livemode: false })).key.id}/revoke`,
  }),
  'rotate-api-key': async () => ({
    method: 'POST',
    path: `/mgmt/v1/api-keys/${(await createApiKey(svc.services, orgId(), { name: 'r', livemode: false })).key.id}/rotate`,
    json: { grace_seconds: 0 },
  }),
  'set-api-key-spend-limit': async () => ({
    method: 'POST',
    path: `/mgmt/v1/api-keys/${(await createApiKey(svc.services, orgId(), { name: 'r', livemode: false })).key.id}/spend-limit`,
    json: { spend_limit: { credits: 100, period: 'day' } },
  }),
  'list-usage': async () => ({ method: 'GET', path: '/mgmt/v1/usage' }),
  'list-organization-jobs': async () => ({ method: 'GET', path: '/mgmt/v1/jobs' }),
  'get-organization-job': async () => ({ method: 'GET', path: `/mgmt/v1/jobs/${jobId}` }),
  'list-organization-job-inputs': async () => ({ method: 'GET', path: `/mgmt/v1/jobs/${jobId}/inputs` }),
  'redact-organization-job': async () => ({
    method: 'POST',
    path: `/mgmt/v1/jobs/${(await call(svc.baseUrl, 'POST', '/v1/plate.read?wait=true', { key: svc.org.testKey, form: formWith('image', [imageFile()]) })).body.id}/redact`,
  }),
  'list-organization-batches': async () => ({ method: 'GET', path: '/mgmt/v1/batches' }),
  'get-organization-batch': async () => ({ method: 'GET', path: `/mgmt/v1/batches/${await batchId()}` }),
  'cancel-organization-batch': async () => ({ method: 'POST', path: `/mgmt/v1/batches/${await batchId()}/cancel` }),
  'list-ledger': async () => ({ method: 'GET', path: '/mgmt/v1/ledger' }),
  'create-checkout-session': async () => ({
    method: 'POST',
    path: '/mgmt/v1/billing/checkout',
    json: { price: 'credits_5000' },
  }),
  'create-portal-session': async () => ({ method: 'POST', path: '/mgmt/v1/billing/portal', json: {} }),
  'create-test-credits': async () => ({ method: 'POST', path: '/mgmt/v1/billing/test-credits', json: { amount: 1 } }),
  'list-webhook-endpoints': async () => ({ method: 'GET', path: '/mgmt/v1/webhook-endpoints' }),
  'create-webhook-endpoint': async () => ({
    method: 'POST',
    path: '/mgmt/v1/webhook-endpoints',
    json: { url: 'https://hooks.example.com/in', enabled_events: ['job.succeeded'] },
  }),
  'get-webhook-endpoint': async () => ({
    method: 'GET',
    path: `/mgmt/v1/webhook-endpoints/${await webhookEndpointId()}`,
  }),
  'delete-webhook-endpoint': async () => ({
    method: 'DELETE',
    path: `/mgmt/v1/webhook-endpoints/${await webhookEndpointId()}`,
  }),
  // port 1 refuses at once: the test answers 200 with delivered false, and nothing leaves the machine
  'test-webhook-endpoint': async () => ({
    method: 'POST',
    path: `/mgmt/v1/webhook-endpoints/${await webhookEndpointId('http://127.0.0.1:1/hooks')}/test`,
    json: {},
  }),
  'list-webhook-deliveries': async () => ({
    method: 'GET',
    path: `/mgmt/v1/webhook-endpoints/${await webhookEndpointId()}/deliveries`,
  }),
  'rotate-webhook-secret': async () => ({
    method: 'POST',
    path: `/mgmt/v1/webhook-endpoints/${await webhookEndpointId()}/rotate-secret`,
    json: {},
  }),
  'list-events': async () => ({ method: 'GET', path: '/mgmt/v1/events' }),
  'get-event': async () => ({ method: 'GET', path: `/mgmt/v1/events/${await storedEventId()}` }),
  'redeliver-event': async () => ({
    method: 'POST',
    path: `/mgmt/v1/events/${await storedEventId()}/redeliver`,
    json: {},
  }),
  'list-members': async () => ({ method: 'GET', path: '/mgmt/v1/members' }),
  'invite-member': async () => ({
    method: 'POST',
    path: '/mgmt/v1/members',
    json: { email: `${randomId('usr')}@example.com`, role: 'member' },
  }),
  'update-member': async () => ({
    method: 'POST',
    path: `/mgmt/v1/members/${await memberId()}`,
    json: { role: 'admin' },
  }),
  'delete-member': async () => ({ method: 'DELETE', path: `/mgmt/v1/members/${await memberId()}` }),
};

/** A fresh member of the organisation, as an accepted invitation leaves it. */
async function memberId(): Promise<string> {
  const id = randomId('usr');
  await svc.services.members.add({
    id,
    org_id: orgId(),
    email: `${id}@example.com`,
    role: 'member',
    status: 'active',
    created: now(),
  });
  return id;
}

/** A batch of the organisation as POST /v1/batches creates it, before its driver starts: it can be read and canceled. */
async function batchId(): Promise<string> {
  const inputFile = await uploadFile(
    svc.baseUrl,
    svc.org.testKey,
    'application/jsonl',
    Buffer.from('{"params":{"vin":"WVWZZZ1KZAW000001"}}\n'),
  );
  const principal = await authenticateApiKey(svc.services, svc.org.testKey);
  return (await createBatch(svc.services, principal, { endpoint: 'pricing.vehicle', input_file: inputFile })).id;
}

async function webhookEndpointId(url = 'https://hooks.example.com/in'): Promise<string> {
  return (await createWebhookEndpoint(svc.services, orgId(), { url, enabled_events: ['job.failed'] })).id;
}

/** An event of the organisation, written as settlement writes it (its job need not exist for these checks). */
async function storedEventId(): Promise<string> {
  const job = await presentJob(svc.services, (await svc.services.jobs.get(jobId))!);
  const id = timeOrderedId('evt', Date.now());
  const event = {
    id,
    object: 'event' as const,
    type: 'job.succeeded' as const,
    api_version: '2026-08-01',
    created: 1,
    data: { job, stage: null },
  };
  await svc.services.uow.commit([
    {
      kind: 'createEvent',
      record: { event, org_id: orgId(), job_id: jobId, livemode: false, dispatched: true },
      dispatchDueAt: 1,
    },
  ]);
  return id;
}

const RANK: Record<Role, number> = { owner: 3, admin: 2, member: 1 };
const JWT_ROUTES = ROUTES.filter((route) => route.auth === 'jwt');

describe('roles: every management route with every role', () => {
  it('has a request for every JWT route of the route table', () => {
    expect(Object.keys(REQUESTS).sort()).toEqual(JWT_ROUTES.map((route) => functionName(route)).sort());
  });

  for (const route of JWT_ROUTES) {
    for (const role of ROLES) {
      const allowed = RANK[role] >= RANK[route.minimumRole!];
      it(`${route.method} ${route.path} as ${role}: ${allowed ? 'allowed' : '403'} (minimum ${route.minimumRole})`, async () => {
        const request = await REQUESTS[functionName(route)]!();
        const response: ApiResponse = await asRole(
          svc,
          role,
          request.method,
          request.path,
          request.json === undefined ? {} : { json: request.json },
        );
        if (allowed)
          expect(response.status, JSON.stringify(response.body)).toBe(Number(Object.keys(route.responses)[0]));
        else expectEnvelope(response, 403, 'permission', 'scope_not_granted');
      });
    }
  }
});

describe('cross-organisation access', () => {
  it("another organisation's job is 403; an absent one is 404", async () => {
    expectEnvelope(
      await asRole(svc, 'owner', 'GET', `/mgmt/v1/jobs/${jobId}`, { org: svc.otherOrg }),
      403,
      'permission',
      'scope_not_granted',
    );
    expectEnvelope(
      await asRole(svc, 'owner', 'GET', '/mgmt/v1/jobs/job_doesNotExist1'),
      404,
      'not_found',
      'job_not_found',
      'id',
    );
    expectEnvelope(
      await asRole(svc, 'owner', 'GET', '/mgmt/v1/jobs/not-a-job'),
      404,
      'not_found',
      'job_not_found',
      'id',
    );
  });

  it("another organisation's API key cannot be revoked or rotated (403); an absent one is 404", async () => {
    const { key, secret } = await createApiKey(svc.services, orgId(), { name: 'mine', livemode: false });
    expectEnvelope(
      await asRole(svc, 'owner', 'POST', `/mgmt/v1/api-keys/${key.id}/revoke`, { org: svc.otherOrg }),
      403,
      'permission',
      'scope_not_granted',
    );
    expectEnvelope(
      await asRole(svc, 'owner', 'POST', `/mgmt/v1/api-keys/${key.id}/rotate`, {
        org: svc.otherOrg,
        json: { grace_seconds: 0 },
      }),
      403,
      'permission',
      'scope_not_granted',
    );
    expect((await call(svc.baseUrl, 'GET', '/v1/jobs', { key: secret })).status).toBe(200);
    expectEnvelope(
      await asRole(svc, 'owner', 'POST', '/mgmt/v1/api-keys/key_doesNotExist1/revoke'),
      404,
      'not_found',
      'api_key_not_found',
      'id',
    );
    expectEnvelope(
      await asRole(svc, 'owner', 'POST', '/mgmt/v1/api-keys/key_doesNotExist1/rotate', { json: { grace_seconds: 0 } }),
      404,
      'not_found',
      'api_key_not_found',
      'id',
    );
  });

  it("another organisation's webhook endpoint or event is 403 on every route that names it; an absent one is 404", async () => {
    const endpoint = await webhookEndpointId('http://127.0.0.1:1/hooks');
    const event = await storedEventId();
    const named: Array<[string, string, unknown?]> = [
      ['GET', `/mgmt/v1/webhook-endpoints/${endpoint}`],
      ['POST', `/mgmt/v1/webhook-endpoints/${endpoint}/test`, {}],
      ['GET', `/mgmt/v1/webhook-endpoints/${endpoint}/deliveries`],
      ['POST', `/mgmt/v1/webhook-endpoints/${endpoint}/rotate-secret`, {}],
      ['DELETE', `/mgmt/v1/webhook-endpoints/${endpoint}`],
      ['GET', `/mgmt/v1/events/${event}`],
      ['POST', `/mgmt/v1/events/${event}/redeliver`, {}],
    ];
    for (const [method, path, json] of named) {
      const response = await asRole(svc, 'owner', method, path, {
        org: svc.otherOrg,
        ...(json === undefined ? {} : { json }),
      });
      expectEnvelope(response, 403, 'permission', 'scope_not_granted', null);
      expect(response.body.error.message, path).toMatch(/belongs to another organisation/);
    }
    // nothing happened: the endpoint is still there, for its own organisation
    expect((await asRole(svc, 'owner', 'GET', `/mgmt/v1/webhook-endpoints/${endpoint}`)).status).toBe(200);
    // naming another organisation's endpoint in the body is the same refusal
    const mine = await storedEventId();
    const foreign = await createWebhookEndpoint(svc.services, svc.otherOrg.organization.id, {
      url: 'http://127.0.0.1:1/hooks',
      enabled_events: ['job.succeeded'],
    });
    expectEnvelope(
      await asRole(svc, 'owner', 'POST', `/mgmt/v1/events/${mine}/redeliver`, { json: { endpoint_id: foreign.id } }),
      403,
      'permission',
      'scope_not_granted',
    );

    const absentEndpoint = 'whe_1111111111111111111111';
    for (const [method, path, json] of [
      ['GET', `/mgmt/v1/webhook-endpoints/${absentEndpoint}`],
      ['POST', `/mgmt/v1/webhook-endpoints/${absentEndpoint}/test`, {}],
      ['GET', `/mgmt/v1/webhook-endpoints/${absentEndpoint}/deliveries`],
      ['POST', `/mgmt/v1/webhook-endpoints/${absentEndpoint}/rotate-secret`, {}],
      ['DELETE', `/mgmt/v1/webhook-endpoints/${absentEndpoint}`],
    ] as Array<[string, string, unknown?]>) {
      expectEnvelope(
        await asRole(svc, 'owner', method, path, json === undefined ? {} : { json }),
        404,
        'not_found',
        'webhook_endpoint_not_found',
        'id',
      );
    }
    expectEnvelope(
      await asRole(svc, 'owner', 'GET', '/mgmt/v1/events/evt_1111111111111111111111'),
      404,
      'not_found',
      'event_not_found',
      'id',
    );
    expectEnvelope(
      await asRole(svc, 'owner', 'POST', '/mgmt/v1/events/evt_1111111111111111111111/redeliver', { json: {} }),
      404,
      'not_found',
      'event_not_found',
      'id',
    );
  });

  it('redelivering to an unknown endpoint names the body field endpoint_id', async () => {
    const event = await storedEventId();
    expectEnvelope(
      await asRole(svc, 'owner', 'POST', `/mgmt/v1/events/${event}/redeliver`, {
        json: { endpoint_id: 'whe_11111111111' },
      }),
      404,
      'not_found',
      'webhook_endpoint_not_found',
      'endpoint_id',
    );
  });

  it('lists show only the organisation of the token', async () => {
    const keys = await asRole(svc, 'member', 'GET', '/mgmt/v1/api-keys', { org: svc.otherOrg });
    expect(keys.body.data.length).toBeGreaterThan(0);
    const mine = await asRole(svc, 'member', 'GET', '/mgmt/v1/api-keys');
    const mineIds = new Set(mine.body.data.map((k: { id: string }) => k.id));
    expect(keys.body.data.some((k: { id: string }) => mineIds.has(k.id))).toBe(false);
    const jobs = await asRole(svc, 'member', 'GET', '/mgmt/v1/jobs', { org: svc.otherOrg });
    expect(jobs.body.data.map((j: { id: string }) => j.id)).not.toContain(jobId);
    const organizationOfOther = await asRole(svc, 'member', 'GET', '/mgmt/v1/organization', { org: svc.otherOrg });
    expect(organizationOfOther.body.id).toBe(svc.otherOrg.organization.id);
  });

  it('a valid token for an organisation its person is not a member of (or that does not exist) reads nothing: 401', async () => {
    for (const org of [orgId(), 'org_doesNotExist1']) {
      const token = await svc.issuer.token(org, 'owner', { userId: 'usr_strangerNotAMember1' });
      expectEnvelope(
        await call(svc.baseUrl, 'GET', '/mgmt/v1/organization', { key: token }),
        401,
        'authentication',
        'invalid_token',
        'Authorization',
      );
      expectEnvelope(
        await call(svc.baseUrl, 'GET', '/mgmt/v1/api-keys', { key: token }),
        401,
        'authentication',
        'invalid_token',
      );
    }
  });

  it('a valid token for an organisation that does not exist creates nothing: no API key, no webhook endpoint', async () => {
    const token = await svc.issuer.token('org_doesNotExist2', 'owner');
    const key = await call(svc.baseUrl, 'POST', '/mgmt/v1/api-keys', {
      key: token,
      json: { name: 'orphan', livemode: false },
    });
    expectEnvelope(key, 401, 'authentication', 'invalid_token');
    const endpoint = await call(svc.baseUrl, 'POST', '/mgmt/v1/webhook-endpoints', {
      key: token,
      json: { url: 'https://hooks.example.com/in', enabled_events: ['job.succeeded'] },
    });
    expectEnvelope(endpoint, 401, 'authentication', 'invalid_token');
    expect(await svc.services.accounts.listApiKeys('org_doesNotExist2')).toEqual([]);
    expect(await svc.services.webhooks.listEndpoints('org_doesNotExist2')).toEqual([]);
  });
});
