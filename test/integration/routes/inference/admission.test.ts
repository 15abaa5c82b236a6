import { describe, expect, it } from 'vitest';
import { PLAN_RATE_LIMITS } from '../../../../lambdas/domain/access/rate-limits.js';
import { TransactionRefused, type WriteOp } from '../../../../lambdas/domain/ports/transactions.js';
import { call, expectEnvelope, formWith, imageFile } from '../../../support/http.js';
import { asRole } from '../../../support/management.js';
import { sharedTestService } from '../../../support/service.js';

// An admission takes its key from the principal cache and checks revocation and the rate limit
// inside its transaction: these prove that nothing about either check was given up for it.
const svc = sharedTestService({ plan: 'free', workerPaused: true });

const admit = (key: string, seed = 'car') =>
  call(svc.baseUrl, 'POST', '/v1/plate.read', { key, form: formWith('image', [imageFile(seed)]) });

async function createKey(): Promise<{ id: string; secret: string }> {
  const response = await asRole(svc, 'admin', 'POST', '/mgmt/v1/api-keys', {
    json: { name: 'warm key', livemode: false },
  });
  expect(response.status).toBe(201);
  return response.body;
}

/** What a refused call must leave untouched. */
async function snapshot(): Promise<{ balance: number; jobs: number; ledger: number }> {
  const orgId = svc.org.organization.id;
  return {
    balance: await svc.services.accounts.getBalance(orgId, false),
    jobs: (await svc.services.jobs.list({ orgId, livemode: false, limit: 100 })).items.length,
    ledger: (await svc.services.accounts.listLedger({ orgId, livemode: false, limit: 100 })).items.length,
  };
}

/** Moves the clock to the start of a fresh rate-limit window. */
function freshWindow(): void {
  const now = svc.clock.nowMs();
  svc.clock.advance(60_000 - (now % 60_000) + 100);
}

describe('a key whose principal is cached by an earlier admission', () => {
  it('is refused with 401 on the very next admission after revocation, and nothing is created', async () => {
    freshWindow();
    const key = await createKey();
    expect((await admit(key.secret, 'warm')).status).toBe(202);
    expect((await asRole(svc, 'admin', 'POST', `/mgmt/v1/api-keys/${key.id}/revoke`)).status).toBe(200);
    const before = await snapshot();
    expectEnvelope(await admit(key.secret, 'after-revoke'), 401, 'authentication', 'invalid_api_key', 'Authorization');
    expect(await snapshot()).toEqual(before);
  });

  it('answers 401, not the request’s own 400 or 403, once revoked', async () => {
    freshWindow();
    const key = await createKey();
    expect((await admit(key.secret, 'warm')).status).toBe(202);
    await asRole(svc, 'admin', 'POST', `/mgmt/v1/api-keys/${key.id}/revoke`);
    expectEnvelope(
      await call(svc.baseUrl, 'POST', '/v1/plate.read', { key: key.secret, json: {} }),
      401,
      'authentication',
      'invalid_api_key',
    );
    expectEnvelope(
      await call(svc.baseUrl, 'POST', '/v1/plate.read?wait=maybe', {
        key: key.secret,
        form: formWith('image', [imageFile()]),
      }),
      401,
      'authentication',
      'invalid_api_key',
    );
  });

  it('is refused once a rotated-out secret’s grace has passed, even while cached', async () => {
    freshWindow();
    const key = await createKey();
    expect((await admit(key.secret, 'warm')).status).toBe(202);
    const rotated = await asRole(svc, 'admin', 'POST', `/mgmt/v1/api-keys/${key.id}/rotate`, {
      json: { grace_seconds: 0 },
    });
    expect(rotated.status).toBe(200);
    const before = await snapshot();
    expectEnvelope(await admit(key.secret, 'old-secret'), 401, 'authentication', 'invalid_api_key');
    expect(await snapshot()).toEqual(before);
    expect((await admit(rotated.body.secret, 'new-secret')).status).toBe(202);
  });
});

describe('the keys version an admission holds its transaction to', () => {
  it('re-reads a cached key after another key of the organisation is revoked, and admits it once', async () => {
    freshWindow();
    const key = await createKey();
    const other = await createKey();
    expect((await admit(key.secret, 'warm-kept')).status).toBe(202);
    expect((await asRole(svc, 'admin', 'POST', `/mgmt/v1/api-keys/${other.id}/revoke`)).status).toBe(200);
    const before = await snapshot();
    const admitted = await admit(key.secret, 'kept-after-other-revoked');
    expect(admitted.status, JSON.stringify(admitted.body)).toBe(202);
    const after = await snapshot();
    expect(after).toEqual({
      balance: before.balance - admitted.body.credits.reserved,
      jobs: before.jobs + 1,
      ledger: before.ledger + 1,
    });
    expectEnvelope(await admit(other.secret, 'revoked-other'), 401, 'authentication', 'invalid_api_key');
  });

  it('keeps a rotated-out secret working through its grace, even while cached, then refuses it', async () => {
    freshWindow();
    const key = await createKey();
    expect((await admit(key.secret, 'warm-grace')).status).toBe(202);
    const rotated = await asRole(svc, 'admin', 'POST', `/mgmt/v1/api-keys/${key.id}/rotate`, {
      json: { grace_seconds: 120 },
    });
    expect(rotated.status).toBe(200);
    expect((await admit(key.secret, 'old-in-grace')).status).toBe(202);
    expect((await admit(rotated.body.secret, 'new-in-grace')).status).toBe(202);
    svc.clock.advance(121_000);
    const before = await snapshot();
    expectEnvelope(await admit(key.secret, 'old-after-grace'), 401, 'authentication', 'invalid_api_key');
    expect(await snapshot()).toEqual(before);
  });

  it('tells a balance too low from keys that changed when one transaction refuses for both', async () => {
    const orgId = svc.org.organization.id;
    const balance = await svc.services.accounts.getBalance(orgId, false);
    const { keysVersion } = await svc.services.accounts.findCredentialWithKeysVersion('no-such-secret', orgId, false);
    const refusal = (ops: WriteOp[]) =>
      svc.services.uow.commit(ops).then(
        () => [] as string[],
        (error: unknown) => (error instanceof TransactionRefused ? [...error.refusedOps].sort() : ['not refused']),
      );
    const move = (delta: number): WriteOp => ({
      kind: 'moveBalance',
      orgId,
      livemode: false,
      delta,
      mustStayNonNegative: true,
    });
    const version = (v: number): WriteOp => ({ kind: 'expectKeysVersion', orgId, livemode: false, version: v });
    expect(await refusal([move(-(balance + 1)), version(keysVersion + 1)])).toEqual([
      'expectKeysVersion',
      'moveBalance',
    ]);
    expect(await refusal([move(-(balance + 1)), version(keysVersion)])).toEqual(['moveBalance']);
    expect(await refusal([move(-1), version(keysVersion + 1)])).toEqual(['expectKeysVersion']);
    // on its own (no balance moved by the transaction) the expectation is a condition check
    expect(
      await refusal([version(keysVersion + 1), { kind: 'expectNoWebhookEndpoints', orgId: 'org_nobody' }]),
    ).toContain('expectKeysVersion');
    expect(await svc.services.accounts.getBalance(orgId, false)).toBe(balance);
  });
});

describe('the rate-limit hit inside the admission transaction', () => {
  it('admits exactly the limit in a window, counts down RateLimit-Remaining, and a 429 creates nothing', async () => {
    freshWindow();
    const limit = PLAN_RATE_LIMITS.free!.inferencePerMinute;
    let admitted = 0;
    let lastRemaining = Number.POSITIVE_INFINITY;
    for (let i = 0; i < limit; i += 1) {
      const response = await call(svc.baseUrl, 'POST', '/v1/tire.read', {
        key: svc.org.testKey,
        form: formWith('image', [imageFile(`t${i}`)]),
      });
      expect(response.status, JSON.stringify(response.body)).toBe(202);
      const remaining = Number(response.headers.get('ratelimit-remaining'));
      expect(remaining).toBeLessThanOrEqual(lastRemaining);
      expect(remaining).toBeLessThanOrEqual(limit - i - 1);
      expect(Number(response.headers.get('ratelimit-limit'))).toBe(limit);
      lastRemaining = remaining;
      admitted += 1;
    }
    expect(admitted).toBe(limit);
    expect(lastRemaining).toBe(0);
    const before = await snapshot();
    const refused = await call(svc.baseUrl, 'POST', '/v1/tire.read', {
      key: svc.org.testKey,
      form: formWith('image', [imageFile('over')]),
    });
    expectEnvelope(refused, 429, 'rate_limit', 'rate_limit_exceeded');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    expect(await snapshot()).toEqual(before);
  });

  it('counts calls that end before admitting (400, 402) against the same window', async () => {
    freshWindow();
    const limit = PLAN_RATE_LIMITS.free!.inferencePerMinute;
    const half = Math.floor(limit / 2);
    for (let i = 0; i < half; i += 1)
      expect((await call(svc.baseUrl, 'POST', '/v1/vin.read', { key: svc.org.testKey, json: {} })).status).toBe(400);
    const steered = await call(svc.baseUrl, 'POST', '/v1/vin.read', {
      key: svc.org.testKey,
      form: formWith('image', [imageFile()]),
      headers: { 'X-Svc-Test-Scenario': 'insufficient_credits' },
    });
    expect(steered.status).toBe(402);
    for (let i = half + 1; i < limit; i += 1)
      expect(
        (
          await call(svc.baseUrl, 'POST', '/v1/vin.read', {
            key: svc.org.testKey,
            form: formWith('image', [imageFile(`v${i}`)]),
          })
        ).status,
      ).toBe(202);
    const before = await snapshot();
    expectEnvelope(
      await call(svc.baseUrl, 'POST', '/v1/vin.read', {
        key: svc.org.testKey,
        form: formWith('image', [imageFile('over')]),
      }),
      429,
      'rate_limit',
      'rate_limit_exceeded',
    );
    expect(await snapshot()).toEqual(before);
  });
});
