import { beforeEach, describe, expect, it } from 'vitest';
import { authenticateApiKey } from '../../../../lambdas/domain/access/api-keys.js';
import { createApiKey } from '../../../../lambdas/domain/access/organizations.js';
import { PLAN_RATE_LIMITS } from '../../../../lambdas/domain/access/rate-limits.js';
import { CATALOGUE, type EndpointSlug, reservationFor } from '../../../../lambdas/domain/catalogue/catalogue.js';
import {
  type Admission,
  admit,
  type InferenceCall,
  type JobRequest,
} from '../../../../lambdas/domain/jobs/admission.js';
import { sweepDueJobs } from '../../../../lambdas/domain/jobs/processing.js';
import { ApiError } from '../../../../lambdas/domain/kernel/errors.js';
import { InjectedFault } from '../../../../lambdas/domain/kernel/faults.js';
import type { UnitOfWork } from '../../../../lambdas/domain/ports/transactions.js';
import { jobStreamPipe } from '../../../../lib/job-stream-definition.js';
import type { InMemoryWorkQueue } from '../../../support/in-memory/jobs.js';
import { type InMemoryWorld, inMemoryWorld, seedOrganization } from '../../../support/in-memory/services.js';
import { expectMoneyInvariants } from '../../../support/invariants.js';

// admit() on in-memory ports: every check, refusal and crash of an admission, in milliseconds.

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('a small picture of a car'),
]);

let { services, faults, org } = {} as InMemoryWorld;

beforeEach(async () => {
  ({ services, faults, org } = await inMemoryWorld({ plan: 'free', startingCredits: { live: 1_000, test: 1_000 } }));
});

function jobRequest(overrides: Partial<JobRequest> = {}): JobRequest {
  return {
    kind: 'job',
    wait: false,
    params: {},
    files: [{ filename: 'car.png', contentType: 'image/png', bytes: PNG }],
    inputRefs: [],
    inputRefsParam: 'input_ref',
    ...overrides,
  };
}

/** A call as the HTTP layer hands it over: the caller authenticated from the headers (cached when it can be). */
async function callWith(
  secret: string,
  overrides: Partial<Omit<InferenceCall, 'endpoint'>> & { slug?: EndpointSlug } = {},
): Promise<InferenceCall> {
  const { slug = 'plate.read', ...rest } = overrides;
  return {
    requestId: 'req_test',
    endpoint: CATALOGUE[slug],
    key: { principal: await authenticateApiKey(services, secret, { provisional: true }), secret },
    scenario: undefined,
    idempotency: null,
    request: jobRequest(),
    ...rest,
  };
}

async function admitted(call: InferenceCall): Promise<Extract<Admission, { kind: 'admitted' }>> {
  const admission = await admit(services, call);
  if (admission.kind !== 'admitted') throw new Error(`expected an admission, got ${JSON.stringify(admission)}`);
  return admission;
}

function refusalOf(admission: Admission): string {
  return admission.kind === 'refused' ? admission.error.code : `not refused: ${admission.kind}`;
}

/** What a refused call must leave as it was (once the table stream has sent what earlier calls admitted). */
async function moneyAndJobs() {
  const orgId = org.organization.id;
  await services.tables.stream.idle();
  return {
    balance: await services.accounts.getBalance(orgId, false),
    ledger: (await services.accounts.listLedger({ orgId, limit: 1000 })).items.length,
    jobs: services.tables.jobs.size,
    queued: services.workQueues.fast.sent.length + services.workQueues.standard.sent.length,
  };
}

describe('an admitted call', () => {
  it('creates one queued job, reserves its credits once in the ledger, counts the call, and the table stream sends its work message', async () => {
    const before = await moneyAndJobs();
    const admission = await admitted(await callWith(org.testKey));
    const reserved = reservationFor(CATALOGUE['plate.read'], 1);
    expect(admission).toMatchObject({
      status: 202,
      job: { object: 'job', endpoint: 'plate.read', status: 'queued', credits: { reserved, charged: null } },
    });
    await expect
      .poll(() => services.workQueues.fast.sent)
      .toEqual([{ message: { job_id: admission.job.id }, delaySeconds: 0 }]);
    expect(await moneyAndJobs()).toEqual({
      balance: before.balance - reserved,
      ledger: before.ledger + 1,
      jobs: 1,
      queued: 1,
    });
    const limit = PLAN_RATE_LIMITS.free!.inferencePerMinute;
    expect(admission.rateLimit).toMatchObject({ limit, allowed: true });
    expect(admission.rateLimit.remaining).toBeLessThanOrEqual(limit - 1);
    await expectMoneyInvariants(services, org.organization.id, false);
  });

  it('reads the window’s count beside its transaction at most once a second, counting its own admissions in between', async () => {
    let reads = 0;
    const read = services.rateLimitCounter.read.bind(services.rateLimitCounter);
    services.rateLimitCounter.read = (key) => {
      reads += 1;
      return read(key);
    };
    const remaining: number[] = [];
    for (let i = 0; i < 3; i += 1) remaining.push((await admitted(await callWith(org.testKey))).rateLimit.remaining);
    expect(reads).toBe(1);
    // another process's calls are not seen until the next read
    services.tables.rateLimitHits.set([...services.tables.rateLimitHits.keys()][0]!, 10);
    services.clock.advance(1_000);
    remaining.push((await admitted(await callWith(org.testKey))).rateLimit.remaining);
    expect(reads).toBe(2);
    const limit = PLAN_RATE_LIMITS.free!.inferencePerMinute;
    expect(remaining).toEqual([limit - 2, limit - 3, limit - 4, limit - 12]);
  });

  it('takes a cached key without a read, and still refuses it on the very next call once revoked', async () => {
    const key = await createApiKey(services, org.organization.id, { name: 'cached', livemode: false });
    await admitted(await callWith(key.secret));
    await services.accounts.revokeApiKey(org.organization.id, key.key.id, 1);
    const before = await moneyAndJobs();
    const call = await callWith(key.secret);
    expect(call.key.principal.provisional).toBe(true);
    const admission = await admit(services, call);
    expect(refusalOf(admission)).toBe('invalid_api_key');
    expect(admission).toMatchObject({ rateLimit: null });
    expect(await moneyAndJobs()).toEqual(before);
  });

  it('re-reads a cached key when another key of the organisation was revoked, and admits it once', async () => {
    const kept = await createApiKey(services, org.organization.id, { name: 'kept', livemode: false });
    const other = await createApiKey(services, org.organization.id, { name: 'other', livemode: false });
    await admitted(await callWith(kept.secret));
    await services.accounts.revokeApiKey(org.organization.id, other.key.id, 1);
    await admitted(await callWith(kept.secret));
    expect(services.tables.jobs.size).toBe(2);
    await expectMoneyInvariants(services, org.organization.id, false);
  });

  it('stores test-mode multipart bytes only where the sandbox model may return them', async () => {
    await admitted(await callWith(org.testKey));
    expect(services.tables.objects.size).toBe(0);
    await admitted(await callWith(org.liveKey));
    expect(services.tables.objects.size).toBe(1);
  });

  it('admits an inspection at its blended price with its stages, from its upload references, and consumes them', async () => {
    const refs = await uploads(['video/mp4', 'image/jpeg']);
    const admission = await admitted(
      await callWith(org.testKey, {
        slug: 'inspections',
        request: { kind: 'inspection', wait: false, inputRefs: refs, exclude: ['render_listing'] },
      }),
    );
    expect(admission.job.stages).toHaveLength(8);
    expect(admission.job.stages!.find((stage) => stage.name === 'render_listing')).toMatchObject({
      skipped: true,
      status: 'canceled',
    });
    expect(admission.job.credits.reserved).toBeLessThan(CATALOGUE.inspections.price);
    for (const ref of refs) expect(services.tables.uploads.get(ref)!.consumed_by).toBe(admission.job.id);
    const again = await admit(
      services,
      await callWith(org.testKey, {
        slug: 'inspections',
        request: { kind: 'inspection', wait: false, inputRefs: refs, exclude: [] },
      }),
    );
    expect(refusalOf(again)).toBe('upload_already_consumed');
  });
});

describe('a refused call', () => {
  it('answers the first refusal in admit’s order: key, scopes, scenario, then the Idempotency-Key, the request, the credits', async () => {
    const scoped = await createApiKey(services, org.organization.id, {
      name: 'A only',
      livemode: false,
      scopes: ['A'],
    });
    const broke = await seedOrganization(services, { startingCredits: { live: 0, test: 0 } });
    const badRequest = new ApiError('parameter_invalid', 'wait', 'wait must be true or false.');
    const idempotency = { key: 'same-key-1234', fingerprint: 'first' };
    expect(refusalOf(await admit(services, await callWith(broke.testKey, { slug: 'vin.read', idempotency })))).toBe(
      'insufficient_credits',
    );
    const before = await moneyAndJobs();
    // each call fails every check from the one named onwards
    const everything = {
      scenario: 'no_such_scenario',
      idempotency: { ...idempotency, fingerprint: 'second' },
      request: badRequest,
    };
    expect(
      refusalOf(await admit(services, await callWith(scoped.secret, { slug: 'damage.detect', ...everything }))),
    ).toBe('scope_not_granted');
    expect(refusalOf(await admit(services, await callWith(org.testKey, everything)))).toBe(
      'test_scenario_not_supported',
    );
    expect(
      refusalOf(
        await admit(services, await callWith(broke.testKey, { ...everything, slug: 'vin.read', scenario: undefined })),
      ),
    ).toBe('idempotency_key_reuse');
    expect(
      refusalOf(await admit(services, await callWith(broke.testKey, { slug: 'vin.read', request: badRequest }))),
    ).toBe('parameter_invalid');
    expect(refusalOf(await admit(services, await callWith(broke.testKey, { slug: 'vin.read' })))).toBe(
      'insufficient_credits',
    );
    expect(refusalOf(await admit(services, await callWith(org.testKey, { scenario: 'insufficient_credits' })))).toBe(
      'insufficient_credits',
    );
    expect(await moneyAndJobs()).toEqual(before);
  });

  it('answers 429 once the window is spent, whatever else it would have answered, creates nothing, and opens again with the next window', async () => {
    const limit = PLAN_RATE_LIMITS.free!.inferencePerMinute;
    for (let i = 0; i < limit - 1; i += 1) await admitted(await callWith(org.testKey));
    // a refused call draws on the window too
    expect(
      refusalOf(
        await admit(services, await callWith(org.testKey, { request: new ApiError('missing_input', 'image') })),
      ),
    ).toBe('missing_input');
    const before = await moneyAndJobs();
    const spent = await admit(services, await callWith(org.testKey));
    expect(refusalOf(spent)).toBe('rate_limit_exceeded');
    expect(spent).toMatchObject({ rateLimit: { remaining: 0, allowed: false } });
    expect(
      refusalOf(
        await admit(services, await callWith(org.testKey, { request: new ApiError('missing_input', 'image') })),
      ),
    ).toBe('rate_limit_exceeded');
    expect(await moneyAndJobs()).toEqual(before);
    // another endpoint has its own window; the next minute opens this one again
    await admitted(await callWith(org.testKey, { slug: 'vin.read' }));
    services.clock.advance(60_000);
    await admitted(await callWith(org.testKey));
  });

  it('refuses a balance too low with 402, and a steered test call before anything is stored', async () => {
    const poor = await seedOrganization(services, { startingCredits: { live: 0, test: 1 } });
    const before = await moneyAndJobs();
    expect(refusalOf(await admit(services, await callWith(poor.testKey)))).toBe('insufficient_credits');
    expect(
      refusalOf(
        await admit(
          services,
          await callWith(org.liveKey, { slug: 'render.background', scenario: 'insufficient_credits' }),
        ),
      ),
    ).not.toBe('insufficient_credits');
    expect(
      refusalOf(
        await admit(
          services,
          await callWith(org.testKey, { slug: 'render.background', scenario: 'insufficient_credits' }),
        ),
      ),
    ).toBe('insufficient_credits');
    // the live call alone was admitted, and stored its input
    expect(services.tables.objects.size).toBe(1);
    expect(services.tables.jobs.size).toBe(before.jobs + 1);
    await expectMoneyInvariants(services, poor.organization.id, false);
  });
});

describe('Idempotency-Key', () => {
  const keyed = (fingerprint = 'same request') => ({ idempotency: { key: 'order-7781-retry', fingerprint } });

  it('replays the first answer, bills once and enqueues once, and refuses the key for another request', async () => {
    const first = await admitted(await callWith(org.testKey, keyed()));
    const balance = await services.accounts.getBalance(org.organization.id, false);
    const replay = await admit(services, await callWith(org.testKey, keyed()));
    expect(replay).toMatchObject({ kind: 'replayed', response: { status: 202, body: first.job } });
    expect(JSON.stringify((replay as Extract<Admission, { kind: 'replayed' }>).response.body)).toBe(
      JSON.stringify(first.job),
    );
    expect(await services.accounts.getBalance(org.organization.id, false)).toBe(balance);
    expect(services.tables.jobs.size).toBe(1);
    await services.tables.stream.idle();
    expect(services.workQueues.fast.sent).toHaveLength(1);
    expect(refusalOf(await admit(services, await callWith(org.testKey, keyed('another request'))))).toBe(
      'idempotency_key_reuse',
    );
    await expectMoneyInvariants(services, org.organization.id, false);
  });

  it('stores a refusal of the request and replays it; a crash frees the key instead', async () => {
    const refused = await admit(
      services,
      await callWith(org.testKey, { ...keyed(), request: new ApiError('missing_input', 'image') }),
    );
    expect(refusalOf(refused)).toBe('missing_input');
    const replay = await admit(services, await callWith(org.testKey, keyed()));
    expect(replay).toMatchObject({
      kind: 'replayed',
      response: { status: 400, body: { error: { code: 'missing_input', param: 'image', request_id: 'req_test' } } },
    });

    faults.arm('admission.before_commit');
    await expect(
      admit(services, await callWith(org.testKey, { idempotency: { key: 'crash-then-retry', fingerprint: 'x' } })),
    ).rejects.toBeInstanceOf(InjectedFault);
    expect(services.tables.jobs.size).toBe(0);
    await admitted(await callWith(org.testKey, { idempotency: { key: 'crash-then-retry', fingerprint: 'x' } }));
    expect(services.tables.jobs.size).toBe(1);
  });

  it('frees the key of a call refused by the rate limit: the same call is admitted in the next window', async () => {
    for (let i = 0; i < PLAN_RATE_LIMITS.free!.inferencePerMinute; i += 1) await admitted(await callWith(org.testKey));
    expect(refusalOf(await admit(services, await callWith(org.testKey, keyed())))).toBe('rate_limit_exceeded');
    services.clock.advance(60_000);
    expect((await admit(services, await callWith(org.testKey, keyed()))).kind).toBe('admitted');
  });

  it('concurrent calls with one key create exactly one job and one reservation', async () => {
    const calls = await Promise.all(Array.from({ length: 20 }, () => callWith(org.testKey, keyed())));
    const answers = await Promise.all(calls.map((call) => admit(services, call)));
    expect(services.tables.jobs.size).toBe(1);
    const [job] = services.tables.jobs.values();
    for (const answer of answers) {
      if (answer.kind === 'refused') expect(answer.error.code).toBe('idempotency_key_in_use');
      else
        expect(answer.kind === 'admitted' ? answer.job.id : (answer.response.body as { id: string }).id).toBe(job!.id);
    }
    await expectMoneyInvariants(services, org.organization.id, false);
  });
});

describe('a crash between the steps of an admission', () => {
  it('before or inside the transaction leaves nothing: no job, no credits moved, no message', async () => {
    const before = await moneyAndJobs();
    const throwing: UnitOfWork = {
      commit: () => Promise.reject(new InjectedFault('the database went away')),
    };
    const failing = { ...services, uow: throwing };
    await expect(admit(failing, await callWith(org.testKey))).rejects.toBeInstanceOf(InjectedFault);
    expect(await moneyAndJobs()).toEqual(before);
    await expectMoneyInvariants(services, org.organization.id, false);
  });

  it('after the transaction keeps the job and its money, and the table stream sends its message all the same', async () => {
    faults.arm('admission.after_commit');
    await expect(admit(services, await callWith(org.testKey))).rejects.toBeInstanceOf(InjectedFault);
    const [job] = services.tables.jobs.values();
    expect(job).toMatchObject({ status: 'queued' });
    await expectMoneyInvariants(services, org.organization.id, false);
    await expect.poll(() => services.workQueues.fast.sent.map(({ message }) => message.job_id)).toEqual([job!.id]);
  });

  it('a job whose record the table stream’s Pipe cannot send lands in its dead-letter queue after the declared retries, and the sweeper sends it', async () => {
    let attempts = 0;
    // the queue refuses every send: an own property over the recording queue's method, removed below
    services.workQueues.fast.send = () => {
      attempts += 1;
      return Promise.reject(new InjectedFault('queue down'));
    };
    const admission = await admitted(await callWith(org.testKey));
    await expect.poll(() => services.streamDeadLetters.sent).toHaveLength(1);
    expect(attempts).toBe(1 + jobStreamPipe('fast').maximumRetryAttempts);
    expect(JSON.parse(services.streamDeadLetters.sent[0]!.message)).toMatchObject({
      requestContext: { condition: 'RetryAttemptsExhausted', approximateInvokeCount: attempts },
      DDBStreamBatchInfo: { batchSize: 1, streamArn: services.tables.stream.shard.streamArn },
    });
    expect(services.workQueues.fast.sent).toHaveLength(0);
    await expectMoneyInvariants(services, org.organization.id, false);
    delete (services.workQueues.fast as Partial<InMemoryWorkQueue>).send;
    services.clock.advance((services.config.redriveAfterSeconds + 1) * 1000);
    expect(await sweepDueJobs(services)).toEqual({ expired: 0, redriven: 1, failed: 0, leftForNextRun: false });
    expect(services.workQueues.fast.sent.map(({ message }) => message.job_id)).toEqual([admission.job.id]);
  });
});

/** Upload references of the test organisation, their bytes already stored. */
async function uploads(contentTypes: string[]): Promise<string[]> {
  const refs: string[] = [];
  for (const [index, contentType] of contentTypes.entries()) {
    const ref = `upl_test${index}${contentType.replace(/\W/g, '')}`;
    const objectKey = `uploads/${org.organization.id}/${ref}`;
    await services.uploads.put({
      upload_ref: ref,
      org_id: org.organization.id,
      livemode: false,
      content_type: contentType,
      size_bytes: PNG.byteLength,
      filename: null,
      object_key: objectKey,
      created: Math.floor(services.clock.nowMs() / 1000),
      expires_at: Math.floor(services.clock.nowMs() / 1000) + 3600,
      consumed_by: null,
    });
    await services.objects.put(objectKey, PNG, contentType);
    refs.push(ref);
  }
  return refs;
}
