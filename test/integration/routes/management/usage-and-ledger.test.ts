import { beforeAll, describe, expect, it } from 'vitest';
import { timeOrderedId } from '../../../../lambdas/domain/kernel/ids.js';
import { usageDate } from '../../../../lambdas/domain/money/usage.js';
import { call, eventually, expectEnvelope, formWith, imageFile } from '../../../support/http.js';
import { ledgerSum } from '../../../support/ledger.js';
import { allPages, asRole } from '../../../support/management.js';
import { sharedTestService } from '../../../support/service.js';

const TERMINAL = ['succeeded', 'failed', 'expired', 'canceled'];

const svc = sharedTestService({ workerPaused: true });

async function settle(jobIds: string[]): Promise<void> {
  await eventually(async () => {
    const statuses = await Promise.all(jobIds.map(async (id) => (await svc.services.jobs.get(id))!.status));
    return statuses.every((status) => TERMINAL.includes(status));
  }, 30_000);
}

const submit = (key: string, slug: string, headers: Record<string, string> = {}) =>
  call(svc.baseUrl, 'POST', `/v1/${slug}`, { key, form: formWith('image', [imageFile(slug)]), headers });

describe('a mixed run: succeeded, failed, canceled, expired, across both modes', () => {
  const ids: string[] = [];

  beforeAll(async () => {
    const { testKey, liveKey } = svc.org;
    for (let i = 0; i < 3; i += 1) ids.push((await submit(testKey, 'plate.read')).body.id);
    ids.push((await submit(testKey, 'plate.read', { 'X-Svc-Test-Scenario': 'model_error' })).body.id);
    ids.push((await submit(testKey, 'damage.detect')).body.id);
    const toCancel = (await submit(testKey, 'damage.detect')).body.id;
    ids.push(toCancel);
    const toExpire = (await submit(liveKey, 'vin.read')).body.id;
    ids.push(toExpire);
    expect(ids.every(Boolean)).toBe(true);
    expect((await call(svc.baseUrl, 'POST', `/v1/jobs/${toCancel}/cancel`, { key: testKey })).body.status).toBe(
      'canceled',
    );
    svc.worker.resume();
    await settle(ids.filter((id) => id !== toExpire));
    // a live job stays queued (no inference plane here) and expires once its queue timeout passes
    svc.clock.advance(15 * 60 * 1000 + 1000);
    await svc.sweeper.sweep();
    await settle(ids);
  });

  it('usage rows match the jobs exactly, newest day first, then endpoint', async () => {
    const jobs = (
      await Promise.all((await allPages(svc, 'member', '/mgmt/v1/jobs')).map((job) => svc.services.jobs.get(job.id)))
    ).map((job) => job!);
    const expected = new Map<string, Record<string, unknown>>();
    for (const job of jobs) {
      const key = `${usageDate(job.created)}|${job.endpoint}|${job.livemode}`;
      const row = (expected.get(key) ?? {
        date: usageDate(job.created),
        endpoint: job.endpoint,
        livemode: job.livemode,
        requests: 0,
        succeeded: 0,
        failed: 0,
        expired: 0,
        canceled: 0,
        billable_units: 0,
        credits_charged: 0,
      }) as Record<string, number>;
      row.requests! += 1;
      row[job.status] = (row[job.status] ?? 0) + 1;
      row.billable_units! += job.status === 'succeeded' ? (job.billable_units ?? 0) : 0;
      row.credits_charged! += job.credits.charged ?? 0;
      expected.set(key, row);
    }
    const response = await asRole(svc, 'member', 'GET', '/mgmt/v1/usage');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ object: 'list', has_more: false });
    const rows = response.body.data as Array<Record<string, unknown>>;
    expect(rows).toHaveLength(expected.size);
    for (const row of rows) expect(row).toEqual(expected.get(`${row.date}|${row.endpoint}|${row.livemode}`));
    const order = rows.map((row) => `${row.date}|${row.endpoint}`);
    const sorted = [...order].sort((a, b) =>
      a.split('|')[0] === b.split('|')[0] ? a.localeCompare(b) : b.localeCompare(a),
    );
    expect(order).toEqual(sorted);

    const plate = rows.find((row) => row.endpoint === 'plate.read')!;
    expect(plate).toMatchObject({ requests: 4, succeeded: 3, failed: 1, billable_units: 3, credits_charged: 6 });
    const damage = rows.find((row) => row.endpoint === 'damage.detect')!;
    expect(damage).toMatchObject({ requests: 2, succeeded: 1, canceled: 1 });
    const vin = rows.find((row) => row.endpoint === 'vin.read')!;
    expect(vin).toMatchObject({ livemode: true, requests: 1, expired: 1, credits_charged: 0 });
  });

  it('filters usage by endpoint, mode and date range, and validates the window', async () => {
    const plateOnly = await asRole(svc, 'member', 'GET', '/mgmt/v1/usage?endpoint=plate.read');
    expect(plateOnly.body.data.length).toBeGreaterThan(0);
    expect(plateOnly.body.data.every((row: { endpoint: string }) => row.endpoint === 'plate.read')).toBe(true);
    const live = await asRole(svc, 'member', 'GET', '/mgmt/v1/usage?livemode=true');
    expect(live.body.data.map((row: { endpoint: string }) => row.endpoint)).toEqual(['vin.read']);
    const longAgo = await asRole(svc, 'member', 'GET', '/mgmt/v1/usage?from=2020-01-01&to=2020-01-31');
    expect(longAgo.body.data).toEqual([]);
    expectEnvelope(
      await asRole(svc, 'member', 'GET', '/mgmt/v1/usage?from=2020-02-01&to=2020-01-01'),
      400,
      'invalid_request',
      'parameter_invalid',
      'from',
    );
    expectEnvelope(
      await asRole(svc, 'member', 'GET', '/mgmt/v1/usage?from=2020-01-01&to=2022-01-01'),
      400,
      'invalid_request',
      'parameter_invalid',
      'from',
    );
    expectEnvelope(
      await asRole(svc, 'member', 'GET', '/mgmt/v1/usage?from=yesterday'),
      400,
      'invalid_request',
      'parameter_invalid',
      'from',
    );
    expectEnvelope(
      await asRole(svc, 'member', 'GET', '/mgmt/v1/usage?endpoint=car.wash'),
      400,
      'invalid_request',
      'parameter_invalid',
      'endpoint',
    );
    expectEnvelope(
      await asRole(svc, 'member', 'GET', '/mgmt/v1/usage?livemode=yes'),
      400,
      'invalid_request',
      'parameter_invalid',
      'livemode',
    );
    expect((await asRole(svc, 'member', 'GET', '/mgmt/v1/usage', { org: svc.otherOrg })).body.data).toEqual([]);
  });

  it('the ledger balances: each mode’s entries sum to the organisation’s balance', async () => {
    const organization = await asRole(svc, 'member', 'GET', '/mgmt/v1/organization');
    expect(organization.status).toBe(200);
    expect(Object.keys(organization.body).sort()).toEqual([
      'balance',
      'billing_country',
      'id',
      'name',
      'object',
      'plan',
      'storage_retention_days',
    ]);
    expect(organization.body).toMatchObject({
      id: svc.org.organization.id,
      object: 'organization',
      name: 'Test Org',
      plan: 'pro',
      billing_country: 'DE',
      storage_retention_days: 30,
    });
    for (const livemode of [true, false]) {
      const entries = await allPages(svc, 'member', `/mgmt/v1/ledger?livemode=${livemode}`);
      expect(entries.every((entry) => entry.livemode === livemode)).toBe(true);
      const sum = entries.reduce((total, entry) => total + entry.amount, 0);
      expect(sum).toBe(organization.body.balance[livemode ? 'live' : 'test']);
      expect(sum).toBe(await ledgerSum(svc.services, svc.org.organization.id, livemode));
    }
    expect(organization.body.balance.test).toBe(10_000 - 6 - 5);
    expect(organization.body.balance.live).toBe(10_000);
  });

  it('lists ledger entries newest first with exactly the documented fields, and pages', async () => {
    const all = await allPages(svc, 'member', '/mgmt/v1/ledger');
    expect(all.map((entry) => entry.id)).toEqual([...all.map((entry) => entry.id)].sort().reverse());
    for (const entry of all)
      expect(Object.keys(entry).sort()).toEqual(['amount', 'created', 'id', 'job_id', 'kind', 'livemode', 'object']);
    expect(new Set(all.map((entry) => entry.livemode))).toEqual(new Set([true, false]));
    const kinds = new Set(all.map((entry) => entry.kind));
    for (const kind of ['deposit', 'reserve', 'commit', 'release']) expect(kinds).toContain(kind);
    const first = await asRole(svc, 'member', 'GET', '/mgmt/v1/ledger?limit=2');
    expect(first.body.has_more).toBe(true);
    const second = await asRole(
      svc,
      'member',
      'GET',
      `/mgmt/v1/ledger?limit=2&starting_after=${first.body.data[1].id}`,
    );
    expect(second.body.data[0].id).toBe(all[2].id);
    expectEnvelope(
      await asRole(svc, 'member', 'GET', '/mgmt/v1/ledger?limit=0'),
      400,
      'invalid_request',
      'parameter_invalid',
      'limit',
    );
    expectEnvelope(
      await asRole(svc, 'member', 'GET', '/mgmt/v1/ledger?starting_after=job_abcdefgh1'),
      400,
      'invalid_request',
      'parameter_invalid',
      'starting_after',
    );
  });

  it('filters the ledger by the endpoint of its entries’ jobs, pages through that filter, and refuses status', async () => {
    const jobs = await allPages(svc, 'member', '/mgmt/v1/jobs');
    const endpointOf = new Map<string, string>(jobs.map((job) => [job.id, job.endpoint]));
    // an entry written before entries kept their job's slug: a plate.read job's, yet it matches no filter
    const plateJob = jobs.find((job) => job.endpoint === 'plate.read')!;
    const legacyId = timeOrderedId('led', svc.clock.nowMs());
    const orgId = svc.org.organization.id;
    const created = Math.floor(svc.clock.nowMs() / 1000);
    const legacy = {
      id: legacyId,
      object: 'ledger_entry',
      org_id: orgId,
      kind: 'commit',
      amount: 0,
      job_id: plateJob.id,
      livemode: plateJob.livemode,
      created,
      reference: null,
    } as const;
    await svc.services.uow.commit([{ kind: 'appendLedger', entry: legacy }]);

    const all = await allPages(svc, 'member', '/mgmt/v1/ledger');
    expect(all.map((entry) => entry.id)).toContain(legacyId);
    for (const slug of ['plate.read', 'damage.detect', 'vin.read']) {
      const expected = all
        .filter((entry) => entry.job_id && entry.id !== legacyId && endpointOf.get(entry.job_id) === slug)
        .map((entry) => entry.id);
      expect(expected.length, slug).toBeGreaterThan(0);
      expect((await allPages(svc, 'member', `/mgmt/v1/ledger?endpoint=${slug}`)).map((entry) => entry.id)).toEqual(
        expected,
      );
    }
    // two at a time, with livemode as well: every match once, in order, has_more false only at the end
    const expected = all
      .filter(
        (entry) =>
          entry.job_id && entry.id !== legacyId && !entry.livemode && endpointOf.get(entry.job_id) === 'plate.read',
      )
      .map((entry) => entry.id);
    const walked: string[] = [];
    let after = '';
    for (;;) {
      const page = await asRole(
        svc,
        'member',
        'GET',
        `/mgmt/v1/ledger?endpoint=plate.read&livemode=false&limit=2${after}`,
      );
      walked.push(...page.body.data.map((entry: { id: string }) => entry.id));
      if (!page.body.has_more) break;
      expect(page.body.data).toHaveLength(2);
      after = `&starting_after=${page.body.data[1].id}`;
    }
    expect(walked).toEqual(expected);

    expectEnvelope(
      await asRole(svc, 'member', 'GET', '/mgmt/v1/ledger?endpoint=plate.write'),
      400,
      'invalid_request',
      'parameter_invalid',
      'endpoint',
    );
    const status = await asRole(svc, 'member', 'GET', '/mgmt/v1/ledger?status=failed');
    expectEnvelope(status, 400, 'invalid_request', 'parameter_unknown', 'status');
    expect(status.body.error.message).toMatch(/no status filter.*GET \/mgmt\/v1\/jobs\?status=/);
    // any other unknown parameter keeps the plain answer
    expect((await asRole(svc, 'member', 'GET', '/mgmt/v1/ledger?colour=red')).body.error.message).toBe(
      'Unknown parameter colour.',
    );
  });

  it('job history spans every key and both modes, filters by mode, status and endpoint, and pages', async () => {
    const otherKey = (
      await asRole(svc, 'admin', 'POST', '/mgmt/v1/api-keys', { json: { name: 'second', livemode: false } })
    ).body.secret as string;
    const viaOtherKey = (await submit(otherKey, 'tire.read')).body.id as string;
    await settle([viaOtherKey]);
    const all = await allPages(svc, 'member', '/mgmt/v1/jobs');
    const listed = all.map((job) => job.id);
    for (const id of [...ids, viaOtherKey]) expect(listed).toContain(id);
    expect(listed).toEqual([...listed].sort().reverse());
    expect(new Set(all.map((job) => job.livemode))).toEqual(new Set([true, false]));
    const live = await asRole(svc, 'member', 'GET', '/mgmt/v1/jobs?livemode=true');
    expect(live.body.data.every((job: { livemode: boolean }) => job.livemode)).toBe(true);
    const failed = await asRole(svc, 'member', 'GET', '/mgmt/v1/jobs?status=failed');
    expect(failed.body.data.map((job: { id: string }) => job.id)).toEqual([ids[3]]);
    const damage = await asRole(svc, 'member', 'GET', '/mgmt/v1/jobs?endpoint=damage.detect&livemode=false');
    expect(damage.body.data).toHaveLength(2);
    const page = await asRole(svc, 'member', 'GET', '/mgmt/v1/jobs?limit=2');
    expect(page.body).toMatchObject({ object: 'list', has_more: true });
    const next = await asRole(svc, 'member', 'GET', `/mgmt/v1/jobs?limit=2&starting_after=${page.body.data[1].id}`);
    expect(next.body.data[0].id).toBe(listed[2]);
    // both modes are merged newest first: small pages walk the same sequence, with no gap and no repeat
    const walked: string[] = [];
    for (let after = ''; ; ) {
      const small = await asRole(
        svc,
        'member',
        'GET',
        `/mgmt/v1/jobs?limit=3${after ? `&starting_after=${after}` : ''}`,
      );
      walked.push(...small.body.data.map((job: { id: string }) => job.id));
      if (!small.body.has_more) break;
      after = walked.at(-1)!;
    }
    expect(walked).toEqual(listed);
    expectEnvelope(
      await asRole(svc, 'member', 'GET', '/mgmt/v1/jobs?livemode=maybe'),
      400,
      'invalid_request',
      'parameter_invalid',
      'livemode',
    );
    expectEnvelope(
      await asRole(svc, 'member', 'GET', '/mgmt/v1/jobs?colour=red'),
      400,
      'invalid_request',
      'parameter_unknown',
      'colour',
    );
  });

  it('one job: the /v1 payload plus the producing API key (id and prefix), in either mode', async () => {
    const [testJob, liveJob] = [ids[0]!, ids[6]!];
    const keys = (await asRole(svc, 'member', 'GET', '/mgmt/v1/api-keys')).body.data as Array<{
      id: string;
      prefix: string;
      livemode: boolean;
    }>;
    for (const [id, key] of [
      [testJob, svc.org.testKey],
      [liveJob, svc.org.liveKey],
    ] as const) {
      const dashboard = await asRole(svc, 'member', 'GET', `/mgmt/v1/jobs/${id}`);
      const v1 = await call(svc.baseUrl, 'GET', `/v1/jobs/${id}`, { key });
      expect(dashboard.status).toBe(200);
      const { api_key: apiKey, ...job } = dashboard.body;
      expect(job).toEqual(v1.body);
      const producer = keys.find((k) => k.prefix === `${key.slice(0, 12)}…`)!;
      expect(apiKey).toEqual({ id: producer.id, prefix: producer.prefix });
    }
  });
});

describe('test credits', () => {
  it('deposit into the test balance only, as a ledger deposit', async () => {
    const before = (await asRole(svc, 'member', 'GET', '/mgmt/v1/organization')).body.balance;
    const response = await asRole(svc, 'admin', 'POST', '/mgmt/v1/billing/test-credits', { json: { amount: 2500 } });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      object: 'ledger_entry',
      kind: 'deposit',
      amount: 2500,
      livemode: false,
      job_id: null,
    });
    expect(Object.keys(response.body).sort()).toEqual([
      'amount',
      'created',
      'id',
      'job_id',
      'kind',
      'livemode',
      'object',
    ]);
    const after = (await asRole(svc, 'member', 'GET', '/mgmt/v1/organization')).body.balance;
    expect(after).toEqual({ live: before.live, test: before.test + 2500 });
    const newest = (await asRole(svc, 'member', 'GET', '/mgmt/v1/ledger?limit=1')).body.data[0];
    expect(newest).toEqual(response.body);
    expect(await ledgerSum(svc.services, svc.org.organization.id, false)).toBe(after.test);
    expect(await ledgerSum(svc.services, svc.org.organization.id, true)).toBe(after.live);
  });

  it('honours Idempotency-Key: a retried deposit is replayed, not repeated', async () => {
    const before = (await asRole(svc, 'member', 'GET', '/mgmt/v1/organization')).body.balance.test;
    const headers = { 'Idempotency-Key': 'test-credits-retry-0001' };
    const first = await asRole(svc, 'admin', 'POST', '/mgmt/v1/billing/test-credits', {
      json: { amount: 700 },
      headers,
    });
    const again = await asRole(svc, 'owner', 'POST', '/mgmt/v1/billing/test-credits', {
      json: { amount: 700 },
      headers,
    });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect((await asRole(svc, 'member', 'GET', '/mgmt/v1/organization')).body.balance.test).toBe(before + 700);
    expectEnvelope(
      await asRole(svc, 'admin', 'POST', '/mgmt/v1/billing/test-credits', { json: { amount: 701 }, headers }),
      409,
      'conflict',
      'idempotency_key_reuse',
      'Idempotency-Key',
    );
  });

  it('validates the amount', async () => {
    for (const amount of [0, -5, 1.5, '100', 10_000_001]) {
      expectEnvelope(
        await asRole(svc, 'admin', 'POST', '/mgmt/v1/billing/test-credits', { json: { amount } }),
        400,
        'invalid_request',
        'parameter_invalid',
        'amount',
      );
    }
    expectEnvelope(
      await asRole(svc, 'admin', 'POST', '/mgmt/v1/billing/test-credits', { json: {} }),
      400,
      'invalid_request',
      'parameter_missing',
      'amount',
    );
  });
});
