import { timeOrderedId } from '../kernel/ids.js';
import type { LedgerEntry, LedgerKind } from '../money/ledger.js';
import type { Services } from '../ports/services.js';
import type { JobRecord } from './job.js';

/** An entry of `job`'s: its reserve at admission, its commit and release at settlement. */
export function jobLedgerEntry(services: Services, job: JobRecord, kind: LedgerKind, amount: number): LedgerEntry {
  // one clock reading for id and `created`, taken as the entry is written: the ledger lists by id,
  // so an entry's place in it and its `created` agree (a reserve is written after a slow upload,
  // seconds after its job's own `created`, and must not be listed among older entries)
  const nowMs = services.clock.nowMs();
  return {
    id: timeOrderedId('led', nowMs),
    object: 'ledger_entry',
    org_id: job.org_id,
    kind,
    amount,
    job_id: job.id,
    livemode: job.livemode,
    created: Math.floor(nowMs / 1000),
    reference: null,
    job_endpoint: job.endpoint,
  };
}
