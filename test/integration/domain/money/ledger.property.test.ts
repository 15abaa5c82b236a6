import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createOrganization } from '../../../../lambdas/domain/access/organizations.js';
import { CATALOGUE, type InferenceSlug } from '../../../../lambdas/domain/catalogue/catalogue.js';
import { type JobDraft, newJob, newJobId, reservationOps } from '../../../../lambdas/domain/jobs/admission.js';
import type { JobRecord } from '../../../../lambdas/domain/jobs/job.js';
import { cancelJob } from '../../../../lambdas/domain/jobs/processing.js';
import { expireJob, settleJob } from '../../../../lambdas/domain/jobs/settlement.js';
import { epochSecondsOfId } from '../../../../lambdas/domain/kernel/ids.js';
import { depositCredits } from '../../../../lambdas/domain/money/credits.js';
import { TransactionRefused } from '../../../../lambdas/domain/ports/transactions.js';
import { expectMoneyInvariants } from '../../../support/invariants.js';
import { sharedTestService } from '../../../support/service.js';

const svc = sharedTestService({ workerPaused: true });

/** The admission transaction alone (the job and its reservation): what these properties exercise, without a call's checks. */
async function admitJob(draft: JobDraft): Promise<JobRecord> {
  const job = newJob(svc.services, draft);
  try {
    await svc.services.uow.commit(reservationOps(svc.services, job));
  } catch (error) {
    if (error instanceof TransactionRefused && error.refusedOps.includes('moveBalance'))
      throw Object.assign(new Error('insufficient credits'), { code: 'insufficient_credits' });
    throw error;
  }
  return job;
}

const SLUGS: InferenceSlug[] = ['plate.read', 'engine.detect', 'render.background', 'pricing.vehicle'];

const operation = fc.oneof(
  fc.record({
    op: fc.constant('admit' as const),
    slug: fc.constantFrom(...SLUGS),
    assets: fc.integer({ min: 1, max: 4 }),
  }),
  fc.record({ op: fc.constant('succeed' as const), pick: fc.nat(), units: fc.integer({ min: 0, max: 40 }) }),
  fc.record({ op: fc.constant('fail' as const), pick: fc.nat() }),
  fc.record({ op: fc.constant('cancel' as const), pick: fc.nat() }),
  fc.record({ op: fc.constant('expire' as const), pick: fc.nat() }),
  fc.record({ op: fc.constant('deposit' as const), amount: fc.integer({ min: 1, max: 50 }) }),
);

describe('ledger properties (real DynamoDB transactions)', () => {
  it('whatever happens, the balance equals the ledger sum, never goes negative, and each job nets to minus its charge', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 60 }),
        fc.array(operation, { minLength: 1, maxLength: 14 }),
        async (startingCredits, operations) => {
          const { organization } = await createOrganization(svc.services, {
            name: 'Property Org',
            startingCredits: { live: 0, test: startingCredits },
          });
          const principal = {
            orgId: organization.id,
            apiKeyId: 'key_property',
            livemode: false,
            scopes: ['A', 'B', 'C', 'D', 'E'] as const,
          };
          const jobs: JobRecord[] = [];
          const current = async (pick: number) =>
            jobs.length ? svc.services.jobs.get(jobs[pick % jobs.length]!.id) : null;
          for (const step of operations) {
            if (step.op === 'admit') {
              const endpoint = CATALOGUE[step.slug];
              const count = Math.min(step.assets, endpoint.maxAssets);
              const inputs = Array.from({ length: endpoint.fileField ? count : 0 }, (_, index) => ({
                index,
                filename: null,
                content_type: 'image/jpeg',
                size_bytes: 10,
                sha256: 'x',
                object_key: 'k',
              }));
              await admitJob({
                principal: { ...principal, scopes: [...principal.scopes] },
                endpoint,
                jobId: newJobId(svc.services),
                params: {},
                inputs,
                scenario: null,
              })
                .then((job) => jobs.push(job))
                .catch((error: { code?: string }) => {
                  if (error.code !== 'insufficient_credits') throw error;
                });
            } else if (step.op === 'deposit') {
              await depositCredits(svc.services, organization.id, false, step.amount, 'property');
            } else {
              const job = await current(step.pick);
              if (!job) continue;
              if (step.op === 'succeed' && job.status === 'queued') {
                const picked = await svc.services.jobs.markProcessing(
                  job.id,
                  job.created,
                  'm@2026-01-01',
                  job.created + 60,
                );
                if (picked)
                  await settleJob(svc.services, picked, {
                    status: 'succeeded',
                    result: {},
                    files: {},
                    billableUnits: step.units,
                  });
              } else if (step.op === 'fail' && job.status === 'queued') {
                const picked = await svc.services.jobs.markProcessing(
                  job.id,
                  job.created,
                  'm@2026-01-01',
                  job.created + 60,
                );
                if (picked)
                  await settleJob(svc.services, picked, {
                    status: 'failed',
                    error: { type: 'processing_error', code: 'model_inference_failed', message: 'x' },
                  });
              } else if (step.op === 'cancel') await cancelJob(svc.services, job);
              else if (step.op === 'expire') await expireJob(svc.services, job);
            }
            await expectMoneyInvariants(svc.services, organization.id, false);
          }
        },
      ),
      { numRuns: 12 },
    );
  });

  it('a reserve written seconds after its job id was minted (a slow upload) is listed by its own time: order by id and `created` agree', async () => {
    const { organization } = await createOrganization(svc.services, {
      name: 'Slow Upload Org',
      startingCredits: { live: 0, test: 100 },
    });
    const principal = {
      orgId: organization.id,
      apiKeyId: 'key_slow',
      livemode: false,
      scopes: ['A', 'B', 'C', 'D', 'E'] as const,
    };
    const admit = (jobId: string) =>
      admitJob({ principal, endpoint: CATALOGUE['pricing.vehicle'], jobId, params: {}, inputs: [], scenario: null });
    try {
      const slowJobId = newJobId(svc.services);
      svc.clock.advance(3_000);
      await admit(newJobId(svc.services));
      svc.clock.advance(3_000);
      const slow = await admit(slowJobId);
      const { items: entries } = await svc.services.accounts.listLedger({
        orgId: organization.id,
        livemode: false,
        limit: 100,
      });
      const reserves = entries.filter((entry) => entry.kind === 'reserve');
      expect(reserves.map((entry) => entry.job_id)).toEqual([slow.id, expect.any(String)]);
      for (const entry of entries) expect(entry.created).toBe(epochSecondsOfId(entry.id));
      expect(entries.map((entry) => entry.created)).toEqual(
        [...entries.map((entry) => entry.created)].sort((a, b) => b - a),
      );
    } finally {
      svc.clock.reset();
    }
  });
});
