import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { expect } from 'vitest';
import type { Container } from '../../lambdas/composition/container.js';
import type { LedgerEntry } from '../../lambdas/domain/money/ledger.js';
import type { Services } from '../../lambdas/domain/ports/services.js';

async function allLedger(services: Services, orgId: string, livemode: boolean): Promise<LedgerEntry[]> {
  const entries: LedgerEntry[] = [];
  let startingAfter: string | undefined;
  for (;;) {
    const page = await services.accounts.listLedger({
      orgId,
      livemode,
      limit: 100,
      ...(startingAfter ? { startingAfter } : {}),
    });
    entries.push(...page.items);
    if (!page.hasMore) return entries;
    startingAfter = page.items[page.items.length - 1]!.id;
  }
}

/**
 * Money and jobs are never lost: the balance equals the ledger's sum and is never negative;
 * every job has exactly one reservation and every reservation a job; a settled job's entries
 * add up to minus what it was charged, an unsettled one's to minus its reservation.
 */
export async function expectMoneyInvariants(services: Services, orgId: string, livemode: boolean): Promise<void> {
  const entries = await allLedger(services, orgId, livemode);
  const balance = await services.accounts.getBalance(orgId, livemode);
  expect(balance).toBeGreaterThanOrEqual(0);
  expect(entries.reduce((sum, e) => sum + e.amount, 0)).toBe(balance);
  const byJob = new Map<string, LedgerEntry[]>();
  for (const entry of entries) if (entry.job_id) byJob.set(entry.job_id, [...(byJob.get(entry.job_id) ?? []), entry]);
  const jobs = [];
  let startingAfter: string | undefined;
  for (;;) {
    const page = await services.jobs.list({ orgId, livemode, limit: 100, ...(startingAfter ? { startingAfter } : {}) });
    jobs.push(...page.items);
    if (!page.hasMore) break;
    startingAfter = page.items[page.items.length - 1]!.id;
  }
  for (const job of jobs) {
    const own = byJob.get(job.id) ?? [];
    if (job.parent_job_id) {
      // an inspection's stage is billed through its inspection: it never touches the ledger
      expect(own, `ledger entries of stage job ${job.id}`).toHaveLength(0);
      expect(job.credits, `credits of stage job ${job.id}`).toEqual({
        reserved: 0,
        charged: job.completed_at === null ? null : 0,
      });
      continue;
    }
    expect(
      own.filter((e) => e.kind === 'reserve'),
      `reservations of ${job.id}`,
    ).toHaveLength(1);
    const net = own.reduce((sum, e) => sum + e.amount, 0);
    expect(
      net + (job.credits.charged ?? job.credits.reserved),
      `net ledger of ${job.id} (${job.status}) plus its cost`,
    ).toBe(0);
  }
  const jobIds = new Set(jobs.map((j) => j.id));
  for (const jobId of byJob.keys()) expect(jobIds.has(jobId), `ledger entries of unknown job ${jobId}`).toBe(true);
}

/** What a refused call must leave untouched: jobs, balance, ledger and stored objects. */
export interface SideEffects {
  balance: number;
  ledger: number;
  jobs: number;
  objects: number;
}

export async function sideEffects(services: Container, orgId: string, livemode = false): Promise<SideEffects> {
  const jobs = await services.jobs.list({ orgId, livemode, limit: 100 });
  const listed = await (await services.clients.s3()).send(
    new ListObjectsV2Command({ Bucket: services.infrastructure.bucketName }),
  );
  return {
    balance: await services.accounts.getBalance(orgId, livemode),
    ledger: (await allLedger(services, orgId, livemode)).reduce((sum, e) => sum + e.amount, 0),
    jobs: jobs.items.length,
    objects: listed.KeyCount ?? 0,
  };
}
