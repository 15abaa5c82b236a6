import { describe, expect, it } from 'vitest';
import { spendPeriodOf } from '../../../../lambdas/domain/access/spend-limits.js';
import { CATALOGUE } from '../../../../lambdas/domain/catalogue/catalogue.js';
import { epochSeconds } from '../../../../lambdas/domain/kernel/clock.js';
import { call, expectEnvelope, formWith } from '../../../support/http.js';
import { expectMoneyInvariants, sideEffects } from '../../../support/invariants.js';
import { asRole } from '../../../support/management.js';
import { sharedTestService } from '../../../support/service.js';

// Spend limits on API keys: held by the admission's own transaction, freed by releases, rolled at
// UTC midnight or the month's start, set in the create body or on their own route (docs/internals/spend-limits.md).

const PRICE = CATALOGUE['pricing.vehicle'].price;
const BODY = { vin: '1HGCM82633A004352', mileage_km: 84000 };

type Limit = { credits: number; period: 'day' | 'month' } | null;

describe('spend limits, jobs held in the queue', () => {
  // enterprise: 6,000 calls a minute, so 200 concurrent calls meet the limit, not the rate limit
  const svc = sharedTestService({
    plan: 'enterprise',
    workerPaused: true,
    startingCredits: { live: 0, test: 1_000_000 },
  });

  async function createKey(spendLimit?: Limit): Promise<{ id: string; secret: string; body: any }> {
    const response = await asRole(svc, 'admin', 'POST', '/mgmt/v1/api-keys', {
      json: { name: 'limited', livemode: false, ...(spendLimit === undefined ? {} : { spend_limit: spendLimit }) },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return { id: response.body.id, secret: response.body.secret, body: response.body };
  }
  const admit = (secret: string) => call(svc.baseUrl, 'POST', '/v1/pricing.vehicle', { key: secret, json: BODY });
  async function keyView(id: string): Promise<any> {
    const list = await asRole(svc, 'admin', 'GET', '/mgmt/v1/api-keys');
    return list.body.data.find((key: { id: string }) => key.id === id);
  }

  it('200 concurrent calls never pass the limit: exactly as many as it holds are admitted, the rest are 402 spend_limit_exceeded', async () => {
    const admissible = 37;
    const key = await createKey({ credits: admissible * PRICE + PRICE - 1, period: 'month' });
    expect(key.body).toMatchObject({
      spend_limit: { credits: admissible * PRICE + PRICE - 1, period: 'month' },
      spent: { credits: 0 },
    });
    const before = await sideEffects(svc.services, svc.org.organization.id);
    const answers = await Promise.all(Array.from({ length: 200 }, () => admit(key.secret)));
    const admitted = answers.filter((answer) => answer.status === 202);
    const refused = answers.filter((answer) => answer.status !== 202);
    expect(admitted).toHaveLength(admissible);
    for (const answer of refused) expectEnvelope(answer, 402, 'insufficient_credits', 'spend_limit_exceeded', null);
    expect((await keyView(key.id)).spent.credits).toBe(admissible * PRICE);
    const after = await sideEffects(svc.services, svc.org.organization.id);
    expect(before.balance - after.balance).toBe(admissible * PRICE);
    await expectMoneyInvariants(svc.services, svc.org.organization.id, false);
  });

  it("a quote is affordable only while the key's limit has room for its reserve, and says so when not", async () => {
    const key = await createKey({ credits: PRICE, period: 'day' });
    const quote = () => call(svc.baseUrl, 'POST', '/v1/pricing.vehicle/quote', { key: key.secret, json: BODY });
    expect((await quote()).body).toMatchObject({ affordable: true, reason: null, credits: { reserve: PRICE } });
    expect((await admit(key.secret)).status).toBe(202);
    expect((await quote()).body).toMatchObject({
      affordable: false,
      reason: 'spend_limit_exceeded',
      credits: { reserve: PRICE },
    });
  });

  it('a released reservation frees room: a canceled job gives its credits back to the period', async () => {
    const key = await createKey({ credits: PRICE, period: 'day' });
    const first = await admit(key.secret);
    expect(first.status).toBe(202);
    const before = await sideEffects(svc.services, svc.org.organization.id);
    expectEnvelope(await admit(key.secret), 402, 'insufficient_credits', 'spend_limit_exceeded', null);
    // refused: nothing queued, nothing charged
    expect(await sideEffects(svc.services, svc.org.organization.id)).toEqual(before);
    expect((await call(svc.baseUrl, 'POST', `/v1/jobs/${first.body.id}/cancel`, { key: key.secret })).status).toBe(200);
    expect((await keyView(key.id)).spent.credits).toBe(0);
    expect((await admit(key.secret)).status).toBe(202);
  });

  it('holds from the next call of a key whose principal is cached, and null removes it', async () => {
    const key = await createKey();
    expect(key.body).toMatchObject({ spend_limit: null, spent: { credits: 0 } });
    expect((await admit(key.secret)).status).toBe(202);
    const set = await asRole(svc, 'admin', 'POST', `/mgmt/v1/api-keys/${key.id}/spend-limit`, {
      json: { spend_limit: { credits: PRICE, period: 'day' } },
    });
    expect(set.status).toBe(200);
    // the call before the limit counts in the day: the limit is already reached
    expect(set.body).toMatchObject({
      id: key.id,
      spend_limit: { credits: PRICE, period: 'day' },
      spent: { credits: PRICE },
    });
    expectEnvelope(await admit(key.secret), 402, 'insufficient_credits', 'spend_limit_exceeded', null);
    expect(
      (await asRole(svc, 'admin', 'POST', `/mgmt/v1/api-keys/${key.id}/spend-limit`, { json: { spend_limit: null } }))
        .body.spend_limit,
    ).toBeNull();
    expect((await admit(key.secret)).status).toBe(202);
  });

  it('rolls at UTC midnight for a day limit; a month limit still counts the day before', async () => {
    const daily = await createKey({ credits: PRICE, period: 'day' });
    const monthly = await createKey({ credits: 2 * PRICE, period: 'month' });
    // a day that is not the month's last, so the roll to the next day stays in the month
    const now = epochSeconds(svc.clock);
    const today = spendPeriodOf('day', now);
    if (today.end === spendPeriodOf('month', now).end) svc.clock.advance((today.end - now + 60) * 1000);
    expect((await admit(daily.secret)).status).toBe(202);
    expect((await admit(monthly.secret)).status).toBe(202);
    expectEnvelope(await admit(daily.secret), 402, 'insufficient_credits', 'spend_limit_exceeded', null);
    const day = spendPeriodOf('day', epochSeconds(svc.clock));
    expect((await keyView(daily.id)).spent).toEqual({ credits: PRICE, period_start: day.start });
    svc.clock.advance((day.end - epochSeconds(svc.clock) + 1) * 1000);
    expect((await keyView(daily.id)).spent).toEqual({ credits: 0, period_start: day.end });
    expect((await admit(daily.secret)).status).toBe(202);
    expect((await admit(monthly.secret)).status).toBe(202);
    expectEnvelope(await admit(monthly.secret), 402, 'insufficient_credits', 'spend_limit_exceeded', null);
    expect((await keyView(monthly.id)).spent.credits).toBe(2 * PRICE);
  });

  it('refuses a bad limit with the envelope and changes nothing; admins only; another organisation’s key is 403', async () => {
    const key = await createKey({ credits: 100, period: 'day' });
    const path = `/mgmt/v1/api-keys/${key.id}/spend-limit`;
    const cases: Array<[unknown, string, string]> = [
      [{ spend_limit: { credits: -1, period: 'day' } }, 'parameter_invalid', 'spend_limit.credits'],
      [{ spend_limit: { credits: 1.5, period: 'day' } }, 'parameter_invalid', 'spend_limit.credits'],
      [{ spend_limit: { credits: 10, period: 'week' } }, 'parameter_invalid', 'spend_limit.period'],
      [{ spend_limit: { credits: 10 } }, 'parameter_missing', 'spend_limit.period'],
      [{ spend_limit: { credits: 10, period: 'day', currency: 'eur' } }, 'parameter_unknown', 'spend_limit.currency'],
      [{}, 'parameter_missing', 'spend_limit'],
    ];
    for (const [json, code, param] of cases)
      expectEnvelope(await asRole(svc, 'admin', 'POST', path, { json }), 400, 'invalid_request', code, param);
    expectEnvelope(
      await asRole(svc, 'admin', 'POST', '/mgmt/v1/api-keys', {
        json: { name: 'bad', livemode: false, spend_limit: { credits: 10, period: 'year' } },
      }),
      400,
      'invalid_request',
      'parameter_invalid',
      'spend_limit.period',
    );
    expectEnvelope(
      await asRole(svc, 'member', 'POST', path, { json: { spend_limit: null } }),
      403,
      'permission',
      'scope_not_granted',
    );
    expectEnvelope(
      await asRole(svc, 'admin', 'POST', path, { json: { spend_limit: null }, org: svc.otherOrg }),
      403,
      'permission',
      'scope_not_granted',
    );
    expectEnvelope(
      await asRole(svc, 'admin', 'POST', '/mgmt/v1/api-keys/key_doesnotexist1234/spend-limit', {
        json: { spend_limit: null },
      }),
      404,
      'not_found',
      'api_key_not_found',
      'id',
    );
    expect((await keyView(key.id)).spend_limit).toEqual({ credits: 100, period: 'day' });
  });
});

describe('spend limits, jobs that run', () => {
  const svc = sharedTestService({ plan: 'enterprise' });

  it('settlement keeps what was charged and frees the rest of the reservation', async () => {
    const created = await asRole(svc, 'admin', 'POST', '/mgmt/v1/api-keys', {
      json: { name: 'audio', livemode: false, spend_limit: { credits: 1000, period: 'month' } },
    });
    const audio = new Blob([Buffer.alloc(3000, 'engine')], { type: 'audio/wav' });
    const job = await call(svc.baseUrl, 'POST', '/v1/engine.detect?wait=true', {
      key: created.body.secret,
      form: formWith('audio', [audio]),
    });
    expect(job.body.status).toBe('succeeded');
    expect(job.body.credits.charged).toBeLessThan(job.body.credits.reserved);
    const list = await asRole(svc, 'admin', 'GET', '/mgmt/v1/api-keys');
    expect(list.body.data.find((key: { id: string }) => key.id === created.body.id).spent.credits).toBe(
      job.body.credits.charged,
    );
  });
});
