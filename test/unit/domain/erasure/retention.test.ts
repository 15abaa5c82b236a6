import { beforeEach, describe, expect, it } from 'vitest';
import type { SeededOrganization } from '../../../../lambdas/domain/access/organizations.js';
import { CATALOGUE } from '../../../../lambdas/domain/catalogue/catalogue.js';
import { enforceRetention } from '../../../../lambdas/domain/erasure/retention.js';
import { newJob, newJobId, reservationOps } from '../../../../lambdas/domain/jobs/admission.js';
import { type JobRecord, outputObjectKey } from '../../../../lambdas/domain/jobs/job.js';
import { settleJob } from '../../../../lambdas/domain/jobs/settlement.js';
import { type InMemoryServices, inMemoryServices, seedOrganization } from '../../../support/in-memory/services.js';

// The retention pass on in-memory ports: which jobs it redacts, what it deletes, where its cursor stays.

const DAY = 86_400_000;
let services: InMemoryServices;
let org: SeededOrganization;

beforeEach(async () => {
  services = inMemoryServices();
  org = await seedOrganization(services);
});

/** A processing plate.read job of the organisation, created now on the service clock, with a produced file stored. */
async function processingJob(): Promise<JobRecord> {
  const principal = { orgId: org.organization.id, apiKeyId: 'key_test', livemode: false, scopes: ['A' as const] };
  const job = newJob(services, {
    principal,
    endpoint: CATALOGUE['plate.read'],
    jobId: newJobId(services),
    params: { country: 'DE' },
    inputs: [],
    scenario: null,
  });
  await services.uow.commit(reservationOps(services, job));
  await services.objects.put(outputObjectKey(job, 'crop.png'), new Uint8Array([1, 2, 3]), 'image/png');
  return (await services.jobs.markProcessing(job.id, job.created, 'model@1', job.created + 60))!;
}

const settle = (job: JobRecord) =>
  settleJob(services, job, { status: 'succeeded', result: { plates: [] }, files: {}, billableUnits: 1 });
const stored = (job: JobRecord) => services.tables.objects.has(outputObjectKey(job, 'crop.png'));
const cursor = () => services.erasure.retentionCursor(org.organization.id, false);

describe('a retention pass', () => {
  it('passes over a job still running (it keeps its data and holds the cursor) and redacts the settled ones after it', async () => {
    const running = await processingJob();
    // ids are time-ordered: a second later, so the running job comes first
    services.clock.advance(1000);
    const settled = await settle(await processingJob());
    services.clock.advance(DAY);
    const fresh = await settle(await processingJob());
    services.clock.advance(30 * DAY - 2000);

    const first = await enforceRetention(services);
    expect(first).toMatchObject({ jobsRedacted: 1, filesDeleted: 1, complete: true });
    expect((await services.jobs.get(settled!.id))!).toMatchObject({
      result: null,
      params: {},
      redacted_at: expect.any(Number),
    });
    expect([stored(running), stored(settled!), stored(fresh!)]).toEqual([true, false, true]);
    expect((await services.jobs.get(running.id))!.redacted_at).toBeUndefined();
    expect(await cursor()).toBeNull();

    await settle(running);
    const second = await enforceRetention(services);
    expect(second).toMatchObject({ jobsRedacted: 1, filesDeleted: 1 });
    expect(stored(running)).toBe(false);
    expect(await cursor()).toBe(settled!.id);
    // the younger job's day comes
    services.clock.advance(DAY);
    expect(await enforceRetention(services)).toMatchObject({ jobsRedacted: 1, filesDeleted: 1 });
    expect(await cursor()).toBe(fresh!.id);
    expect(await enforceRetention(services)).toEqual({
      organizations: 1,
      jobsRedacted: 0,
      filesDeleted: 0,
      complete: true,
    });
  });
});
