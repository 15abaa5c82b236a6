import { describe, expect, it } from 'vitest';
import { hashSecret } from '../../../../lambdas/domain/access/api-keys.js';
import { call, eventually, expectEnvelope, formWith, imageFile } from '../../../support/http.js';
import { asRole } from '../../../support/management.js';
import { sharedTestService } from '../../../support/service.js';

const svc = sharedTestService();

const KEY_FIELDS = [
  'created',
  'expires_at',
  'id',
  'last_used_at',
  'livemode',
  'name',
  'object',
  'prefix',
  'revoked_at',
  'scopes',
  'spend_limit',
  'spent',
];
const listJobs = (key: string) => call(svc.baseUrl, 'GET', '/v1/jobs', { key });

async function createKey(
  body: Record<string, unknown> = { name: 'CI key', livemode: false },
): Promise<{ id: string; secret: string; [field: string]: unknown }> {
  const response = await asRole(svc, 'admin', 'POST', '/mgmt/v1/api-keys', { json: body });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

const rotate = (id: string, grace: number) =>
  asRole(svc, 'admin', 'POST', `/mgmt/v1/api-keys/${id}/rotate`, { json: { grace_seconds: grace } });
const revoke = (id: string) => asRole(svc, 'admin', 'POST', `/mgmt/v1/api-keys/${id}/revoke`);

describe('create and list', () => {
  it('creates a key whose secret is shown once, with every family when scopes are omitted', async () => {
    const created = await createKey({ name: 'Production server', livemode: true });
    expect(Object.keys(created).sort()).toEqual([...KEY_FIELDS, 'secret'].sort());
    expect(created).toMatchObject({
      object: 'api_key',
      name: 'Production server',
      livemode: true,
      scopes: ['A', 'B', 'C', 'D', 'E', 'inspections'],
      last_used_at: null,
      revoked_at: null,
      expires_at: null,
    });
    expect(created.id).toMatch(/^key_[1-9A-HJ-NP-Za-km-z]{8,32}$/);
    expect(created.secret).toMatch(/^chk_live_[1-9A-HJ-NP-Za-km-z]{32}$/);
    expect(created.prefix).toBe(`${created.secret.slice(0, 12)}…`);

    const listed = await asRole(svc, 'member', 'GET', '/mgmt/v1/api-keys');
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({ object: 'list', has_more: false });
    const entry = listed.body.data.find((k: { id: string }) => k.id === created.id);
    expect(Object.keys(entry).sort()).toEqual(KEY_FIELDS);
    expect(entry.prefix).toBe(created.prefix);
    const text = JSON.stringify(listed.body);
    expect(text).not.toContain(created.secret);
    expect(text).not.toContain(hashSecret(created.secret));
    expect(text).not.toContain('secret');

    const liveOnly = await asRole(svc, 'member', 'GET', '/mgmt/v1/api-keys?livemode=true');
    expect(liveOnly.body.data.every((k: { livemode: boolean }) => k.livemode)).toBe(true);
    expect(liveOnly.body.data.map((k: { id: string }) => k.id)).toContain(created.id);
    expect((await listJobs(created.secret)).status).toBe(200);
  });

  it('validates the create body', async () => {
    expectEnvelope(
      await asRole(svc, 'admin', 'POST', '/mgmt/v1/api-keys', { json: { livemode: false } }),
      400,
      'invalid_request',
      'parameter_missing',
      'name',
    );
    expectEnvelope(
      await asRole(svc, 'admin', 'POST', '/mgmt/v1/api-keys', { json: { name: 'x' } }),
      400,
      'invalid_request',
      'parameter_missing',
      'livemode',
    );
    expectEnvelope(
      await asRole(svc, 'admin', 'POST', '/mgmt/v1/api-keys', { json: { name: 'x', livemode: false, scopes: ['Z'] } }),
      400,
      'invalid_request',
      'parameter_invalid',
      'scopes.0',
    );
    expectEnvelope(
      await asRole(svc, 'admin', 'POST', '/mgmt/v1/api-keys', { json: { name: 'x', livemode: false, scopes: [] } }),
      400,
      'invalid_request',
      'parameter_invalid',
      'scopes',
    );
    expectEnvelope(
      await asRole(svc, 'admin', 'POST', '/mgmt/v1/api-keys', { json: { name: 'x', livemode: false, owner: 'me' } }),
      400,
      'invalid_request',
      'parameter_unknown',
      'owner',
    );
  });

  it('records last_used_at without a write on every call: once, then not again within five minutes', async () => {
    const created = await createKey();
    const lastUsed = async () =>
      (await asRole(svc, 'member', 'GET', '/mgmt/v1/api-keys')).body.data.find(
        (k: { id: string }) => k.id === created.id,
      ).last_used_at as number | null;
    expect(await lastUsed()).toBeNull();
    await listJobs(created.secret);
    const first = await eventually(lastUsed);
    // the touch is fire-and-forget: let its second write (the snapshot the next lookup reads) land too
    await eventually(
      async () => (await svc.services.accounts.findCredential(hashSecret(created.secret)))?.key.last_used_at === first,
    );
    svc.clock.advance(60_000);
    for (let i = 0; i < 3; i += 1) await listJobs(created.secret);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await lastUsed()).toBe(first);
    svc.clock.advance(5 * 60_000);
    await listJobs(created.secret);
    const second = await eventually(async () => ((await lastUsed())! > first ? await lastUsed() : null));
    expect(second).toBeGreaterThanOrEqual(first + 6 * 60);
  });
});

describe('scopes', () => {
  it('a scoped key calling outside its families gets 403 scope_not_granted; inside them it works', async () => {
    const scoped = await createKey({ name: 'money only', livemode: false, scopes: ['D'] });
    expect(scoped.scopes).toEqual(['D']);
    expectEnvelope(
      await call(svc.baseUrl, 'POST', '/v1/plate.read', { key: scoped.secret, form: formWith('image', [imageFile()]) }),
      403,
      'permission',
      'scope_not_granted',
    );
    expectEnvelope(
      await call(svc.baseUrl, 'POST', '/v1/damage.detect', {
        key: scoped.secret,
        form: formWith('image', [imageFile()]),
      }),
      403,
      'permission',
      'scope_not_granted',
    );
    const priced = await call(svc.baseUrl, 'POST', '/v1/pricing.vehicle', {
      key: scoped.secret,
      json: { vin: '1HGCM82633A004352', mileage_km: 84000 },
    });
    expect(priced.status, JSON.stringify(priced.body)).toBe(202);
    expect((await listJobs(scoped.secret)).status).toBe(200);
  });
});

describe('revoke', () => {
  it('the very next request gets 401, a job admitted before still finishes, and revoking is irreversible', async () => {
    svc.worker.pause();
    try {
      const created = await createKey();
      const job = await call(svc.baseUrl, 'POST', '/v1/plate.read', {
        key: created.secret,
        form: formWith('image', [imageFile('inflight')]),
      });
      expect(job.status).toBe(202);
      const revoked = await revoke(created.id);
      expect(revoked.status).toBe(200);
      expect(revoked.body.revoked_at).toBeGreaterThan(0);
      expect(Object.keys(revoked.body).sort()).toEqual(KEY_FIELDS);
      expectEnvelope(await listJobs(created.secret), 401, 'authentication', 'invalid_api_key');
      expectEnvelope(
        await call(svc.baseUrl, 'GET', `/v1/jobs/${job.body.id}`, { key: created.secret }),
        401,
        'authentication',
        'invalid_api_key',
      );

      svc.worker.resume();
      const settled = await eventually(async () => {
        const r = await asRole(svc, 'member', 'GET', `/mgmt/v1/jobs/${job.body.id}`);
        return r.body.status === 'succeeded' ? r : null;
      });
      expect(settled.body.api_key).toEqual({ id: created.id, prefix: created.prefix });

      const again = await revoke(created.id);
      expect(again.status).toBe(200);
      expect(again.body.revoked_at).toBe(revoked.body.revoked_at);
      expectEnvelope(await rotate(created.id, 0), 409, 'conflict', 'api_key_revoked', 'id');
    } finally {
      svc.worker.resume();
    }
  });

  it('revocation also ends secrets still inside a rotation grace period', async () => {
    const created = await createKey();
    const rotated = await rotate(created.id, 3600);
    expect((await listJobs(created.secret)).status).toBe(200);
    expect((await listJobs(rotated.body.secret)).status).toBe(200);
    await revoke(created.id);
    expectEnvelope(await listJobs(created.secret), 401, 'authentication', 'invalid_api_key');
    expectEnvelope(await listJobs(rotated.body.secret), 401, 'authentication', 'invalid_api_key');
  });
});

describe('undeclared parameters on management routes are refused, not ignored', () => {
  it('revoke takes no body: a JSON body with a field is parameter_unknown naming it, and the key stays active; {} or nothing is fine', async () => {
    const created = await createKey();
    const path = `/mgmt/v1/api-keys/${created.id}/revoke`;
    expectEnvelope(
      await asRole(svc, 'admin', 'POST', path, { json: { foo: 1, bar: 2 } }),
      400,
      'invalid_request',
      'parameter_unknown',
      'foo',
    );
    expect((await listJobs(created.secret)).status).toBe(200);
    expect((await asRole(svc, 'admin', 'POST', path, { json: {} })).status).toBe(200);
    expect((await revoke(created.id)).status).toBe(200);
  });

  it('a route without a query schema refuses any query parameter (limit on the webhook endpoint list, which is not paginated)', async () => {
    expectEnvelope(
      await asRole(svc, 'admin', 'GET', '/mgmt/v1/webhook-endpoints?limit=1'),
      400,
      'invalid_request',
      'parameter_unknown',
      'limit',
    );
    expectEnvelope(
      await asRole(svc, 'member', 'GET', '/mgmt/v1/organization?expand=balance'),
      400,
      'invalid_request',
      'parameter_unknown',
      'expand',
    );
    expectEnvelope(
      await asRole(svc, 'admin', 'POST', `/mgmt/v1/api-keys/key_doesNotExist1/revoke?force=1`),
      400,
      'invalid_request',
      'parameter_unknown',
      'force',
    );
  });
});

describe('rotate', () => {
  it('gives a new secret for the same key; the old one works until grace_seconds pass, then 401', async () => {
    const created = await createKey();
    const rotated = await rotate(created.id, 600);
    expect(rotated.status).toBe(200);
    expect(rotated.body.id).toBe(created.id);
    expect(rotated.body.secret).toMatch(/^chk_test_/);
    expect(rotated.body.secret).not.toBe(created.secret);
    expect(rotated.body.prefix).toBe(`${rotated.body.secret.slice(0, 12)}…`);

    expect((await listJobs(created.secret)).status).toBe(200);
    // the service's clock is real time plus the advance: leave room for a slow runner before the expiry
    svc.clock.advance(570_000);
    expect((await listJobs(created.secret)).status).toBe(200);
    svc.clock.advance(31_000);
    expectEnvelope(await listJobs(created.secret), 401, 'authentication', 'invalid_api_key');
    expect((await listJobs(rotated.body.secret)).status).toBe(200);

    const listed = await asRole(svc, 'member', 'GET', '/mgmt/v1/api-keys');
    expect(listed.body.data.filter((k: { id: string }) => k.id === created.id)).toHaveLength(1);
  });

  it('grace_seconds 0 ends the old secret at once', async () => {
    const created = await createKey();
    const rotated = await rotate(created.id, 0);
    expectEnvelope(await listJobs(created.secret), 401, 'authentication', 'invalid_api_key');
    expect((await listJobs(rotated.body.secret)).status).toBe(200);
  });

  it('a second rotation never extends the first secret’s grace', async () => {
    const created = await createKey();
    const first = await rotate(created.id, 60);
    const second = await rotate(created.id, 3600);
    svc.clock.advance(61_000);
    expectEnvelope(await listJobs(created.secret), 401, 'authentication', 'invalid_api_key');
    expect((await listJobs(first.body.secret)).status).toBe(200);
    expect((await listJobs(second.body.secret)).status).toBe(200);
    svc.clock.advance(3600_000);
    expectEnvelope(await listJobs(first.body.secret), 401, 'authentication', 'invalid_api_key');
    expect((await listJobs(second.body.secret)).status).toBe(200);
    // the expired secrets are pruned at the next rotation
    const third = await rotate(created.id, 0);
    expect((await listJobs(third.body.secret)).status).toBe(200);
    expectEnvelope(await listJobs(second.body.secret), 401, 'authentication', 'invalid_api_key');
  });

  it('validates grace_seconds', async () => {
    const created = await createKey();
    expectEnvelope(
      await asRole(svc, 'admin', 'POST', `/mgmt/v1/api-keys/${created.id}/rotate`),
      400,
      'invalid_request',
      'parameter_missing',
      'grace_seconds',
    );
    expectEnvelope(await rotate(created.id, -1), 400, 'invalid_request', 'parameter_invalid', 'grace_seconds');
    expectEnvelope(await rotate(created.id, 604_801), 400, 'invalid_request', 'parameter_invalid', 'grace_seconds');
    expectEnvelope(await rotate(created.id, 1.5), 400, 'invalid_request', 'parameter_invalid', 'grace_seconds');
    expect((await rotate(created.id, 604_800)).status).toBe(200);
  });
});

describe('Idempotency-Key on key creation and rotation', () => {
  it('a replayed create names the same key without revealing its secret again, and makes no second key', async () => {
    const headers = { 'Idempotency-Key': `create-${Date.now()}-key` };
    const body = { name: 'Idempotent key', livemode: false };
    const first = await asRole(svc, 'admin', 'POST', '/mgmt/v1/api-keys', { json: body, headers });
    expect(first.status).toBe(201);
    expect(first.body.secret).toMatch(/^chk_test_/);
    const replay = await asRole(svc, 'admin', 'POST', '/mgmt/v1/api-keys', { json: body, headers });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.id).toBe(first.body.id);
    expect(replay.body).not.toHaveProperty('secret');
    const listed = await asRole(svc, 'member', 'GET', '/mgmt/v1/api-keys');
    expect(listed.body.data.filter((k: { name: string }) => k.name === 'Idempotent key')).toHaveLength(1);
    expectEnvelope(
      await asRole(svc, 'admin', 'POST', '/mgmt/v1/api-keys', { json: { ...body, name: 'Other' }, headers }),
      409,
      'conflict',
      'idempotency_key_reuse',
      'Idempotency-Key',
    );
  });

  it('a replayed rotation rotates once: the secret from the first answer keeps working', async () => {
    const key = await createKey();
    const headers = { 'Idempotency-Key': `rotate-${key.id}` };
    const first = await asRole(svc, 'admin', 'POST', `/mgmt/v1/api-keys/${key.id}/rotate`, {
      json: { grace_seconds: 0 },
      headers,
    });
    expect(first.status).toBe(200);
    const replay = await asRole(svc, 'admin', 'POST', `/mgmt/v1/api-keys/${key.id}/rotate`, {
      json: { grace_seconds: 0 },
      headers,
    });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).not.toHaveProperty('secret');
    expect((await listJobs(first.body.secret)).status).toBe(200);
  });
});
